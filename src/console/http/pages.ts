// The two HTML documents the server renders: the login form (plain HTML; login.js adds the one-time
// nonce the page needs to take its session key, see auth/sessions.ts) and
// the shell the page's modules mount into. hono's `html` template escapes every interpolated value.
import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';

/** Bare specifiers the page's modules import, mapped to the copies the console serves from node_modules. */
export const IMPORT_MAP = JSON.stringify({
  imports: { preact: '/vendor/preact.mjs', 'preact/hooks': '/vendor/preact-hooks.mjs', htm: '/vendor/htm.mjs' },
});

// The import map is our own constant JSON; it goes in raw so its bytes match the CSP hash exactly.
const IMPORT_MAP_RAW = raw(IMPORT_MAP);

/** The CSP hash of the inline import map, the only inline script the page has. */
export const IMPORT_MAP_HASH = createHash('sha256').update(IMPORT_MAP, 'utf8').digest('base64');

export function loginPage(options: { loginCsrf: string; error?: string; localUser?: string }) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log in · durable-agent console</title>
<link rel="stylesheet" href="/assets/console.css">
<script type="module" src="/assets/login.js"></script>
</head>
<body class="login">
<main class="login-box">
  <h1>durable-agent console</h1>
  ${options.error ? html`<p class="notice error" role="alert">${options.error}</p>` : ''}
  <form method="post" action="/login">
    <input type="hidden" name="login_csrf" value="${options.loginCsrf}">
    <input type="hidden" name="login_nonce" value="">
    <label>Name <input name="name" autocomplete="username" placeholder="${options.localUser ? `empty for ${options.localUser} with the start token` : ''}"></label>
    <label>Password or start token <input name="secret" type="password" autocomplete="current-password" required></label>
    <button type="submit">Log in</button>
  </form>
  <p class="hint">The start token is printed by <code>agentctl console</code> (and <code>npm start</code>) when it starts. Users of a users file log in with their name and password.</p>
</main>
</body>
</html>`;
}

/**
 * The page shell. It holds nothing of the session (not the user, not the key), so a cookie that
 * reached the console from elsewhere opens only an empty shell; the page asks /api/session who it is.
 */
export function appShell() {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>durable-agent console</title>
<link rel="stylesheet" href="/assets/console.css">
<script type="importmap">${IMPORT_MAP_RAW}</script>
<script type="module" src="/assets/app.js"></script>
</head>
<body>
<div id="app"></div>
</body>
</html>`;
}
