// Logging in and out. The login form is protected against login CSRF by a double-submit token (a
// cookie and a hidden field that must match) and a same-origin check; guessing is slowed per name and
// per address (LoginThrottle), with a 429 that says when to try again.
import { randomBytes } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { sameSecret } from '../auth/authenticator';
import type { ConsoleDeps, ConsoleEnv } from './console-context';
import { loginPage } from './pages';
import { cookieValues, requestOrigin, sameOrigin } from './security';

/** A failed login waits this long, which slows guessing without bothering a person who mistyped. */
const FAILED_LOGIN_DELAY_MS = 500;
/** Where the page finds its session key after logging in: the URL fragment, which is never sent to any server. */
export const SESSION_KEY_FRAGMENT = 'session-key';

/** The client's address, for the per-address limit; requests made in-process (tests) have none. */
function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function addAuthRoutes(app: Hono<ConsoleEnv>, deps: ConsoleDeps, localUser: string | undefined): void {
  const cookieOptions = { httpOnly: true, sameSite: 'Strict', path: '/', secure: deps.cookie.secure } as const;
  const loginCsrfCookie = deps.cookie.loginName;
  const showLogin = (c: Context<ConsoleEnv>, status: 200 | 401 | 403 | 429, error?: string) => {
    const loginCsrf = randomBytes(24).toString('base64url');
    setCookie(c, loginCsrfCookie, loginCsrf, { ...cookieOptions, maxAge: 3600 });
    return c.html(loginPage({ loginCsrf, error, localUser }), status);
  };

  app.get('/login', (c) => showLogin(c, 200));

  app.post('/login', async (c) => {
    const form = await c.req.parseBody();
    const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const expected = getCookie(c, loginCsrfCookie) ?? '';
    if (!sameOrigin(c) || !expected || !sameSecret(field('login_csrf'), expected)) {
      return showLogin(c, 403, 'The login form expired or came from another site. Try again.');
    }
    const attempt = deps.throttle.begin(field('name'), clientAddress(c));
    if ('refused' in attempt) {
      c.header('retry-after', String(attempt.refused.retryAfterSeconds));
      return showLogin(c, 429, attempt.refused.message);
    }
    const user = await deps.authenticator.authenticate(field('name'), field('secret')).catch((error: unknown) => {
      attempt.settle(false);
      throw error;
    });
    if (!user) {
      // The attempt stays claimed through the delay, so parallel guesses for this name wait it out too.
      await new Promise((resolve) => setTimeout(resolve, FAILED_LOGIN_DELAY_MS));
      attempt.settle(false);
      return showLogin(c, 401, 'Wrong name, password or token.');
    }
    attempt.settle(true);
    for (const id of cookieValues(c, deps.cookie.name)) deps.sessions.delete(id);
    const nonce = field('login_nonce');
    const session = deps.sessions.create(user, requestOrigin(c, deps.cookie.secure), LOGIN_NONCE.test(nonce) ? nonce : undefined);
    deleteCookie(c, loginCsrfCookie, { path: '/', secure: deps.cookie.secure });
    setCookie(c, deps.cookie.name, session.id, { ...cookieOptions, maxAge: Math.floor((session.expiresAt - Date.now()) / 1000) });
    // The key travels in the fragment: the browser keeps it on this page, and no server (ours, or one
    // on another port that can read our cookies) ever receives it.
    return c.redirect(`/#${SESSION_KEY_FRAGMENT}=${session.csrfToken}`, 303);
  });
}

/** What login.js puts in the form: 32 random bytes, base64url. */
const LOGIN_NONCE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Behind `requireSession` (so with the fragment's key and the cookie of the same session): the page
 * takes the key only when the login nonce its tab kept is this session's, once. A login made
 * elsewhere (someone else's session, planted with a cookie) has another nonce or none.
 */
export function addClaimRoute(app: Hono<ConsoleEnv>): void {
  app.post('/api/session/claim', async (c) => {
    const session = c.get('session');
    const raw: unknown = await c.req.json().catch(() => undefined);
    const nonce = typeof (raw as { nonce?: unknown } | undefined)?.nonce === 'string' ? (raw as { nonce: string }).nonce : '';
    if (session.claimed || !session.loginNonce || !sameSecret(nonce, session.loginNonce)) {
      return c.json({ error: 'Refused: this session key was not made by a login in this browser tab (or was taken already). Log in again.' }, 403);
    }
    session.claimed = true;
    return c.json({ user: session.user });
  });
}

/** Behind `requireSession`, so a cross-site page cannot log a person out either. */
export function addLogoutRoute(app: Hono<ConsoleEnv>, deps: ConsoleDeps): void {
  app.post('/api/logout', (c) => {
    deps.sessions.delete(c.get('session').id);
    deleteCookie(c, deps.cookie.name, { path: '/', secure: deps.cookie.secure });
    return c.json({ loggedOut: true });
  });
}
