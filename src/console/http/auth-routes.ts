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
    const session = deps.sessions.create(user, requestOrigin(c, deps.cookie.secure));
    deleteCookie(c, loginCsrfCookie, { path: '/', secure: deps.cookie.secure });
    setCookie(c, deps.cookie.name, session.id, { ...cookieOptions, maxAge: Math.floor((session.expiresAt - Date.now()) / 1000) });
    // The key travels in the fragment: the browser keeps it on this page, and no server (ours, or one
    // on another port that can read our cookies) ever receives it.
    return c.redirect(`/#${SESSION_KEY_FRAGMENT}=${session.csrfToken}`, 303);
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
