// Logging in and out. The login form is protected against login CSRF by a double-submit token (a
// cookie and a hidden field that must match) and a same-origin check.
import { randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { sameSecret } from '../auth/authenticator';
import type { ConsoleDeps, ConsoleEnv } from './console-context';
import { loginPage } from './pages';
import { sameOrigin, SESSION_COOKIE } from './security';

const LOGIN_CSRF_COOKIE = 'agent_console_login';
/** A failed login waits this long, which slows guessing without bothering a person who mistyped. */
const FAILED_LOGIN_DELAY_MS = 500;

const cookieOptions = { httpOnly: true, sameSite: 'Strict', path: '/' } as const;

export function addAuthRoutes(app: Hono<ConsoleEnv>, deps: ConsoleDeps, localUser: string | undefined): void {
  const showLogin = (c: Context<ConsoleEnv>, status: 200 | 401 | 403, error?: string) => {
    const loginCsrf = randomBytes(24).toString('base64url');
    setCookie(c, LOGIN_CSRF_COOKIE, loginCsrf, { ...cookieOptions, maxAge: 3600 });
    return c.html(loginPage({ loginCsrf, error, localUser }), status);
  };

  app.get('/login', (c) => showLogin(c, 200));

  app.post('/login', async (c) => {
    const form = await c.req.parseBody();
    const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const expected = getCookie(c, LOGIN_CSRF_COOKIE) ?? '';
    if (!sameOrigin(c) || !expected || !sameSecret(field('login_csrf'), expected)) {
      return showLogin(c, 403, 'The login form expired or came from another site. Try again.');
    }
    const user = await deps.authenticator.authenticate(field('name'), field('secret'));
    if (!user) {
      await new Promise((resolve) => setTimeout(resolve, FAILED_LOGIN_DELAY_MS));
      return showLogin(c, 401, 'Wrong name, password or token.');
    }
    deps.sessions.delete(getCookie(c, SESSION_COOKIE));
    const session = deps.sessions.create(user);
    deleteCookie(c, LOGIN_CSRF_COOKIE, { path: '/' });
    setCookie(c, SESSION_COOKIE, session.id, { ...cookieOptions, maxAge: Math.floor((session.expiresAt - Date.now()) / 1000) });
    return c.redirect('/', 303);
  });
}

/** Behind `requireSession`, so a cross-site page cannot log a person out either. */
export function addLogoutRoute(app: Hono<ConsoleEnv>, deps: ConsoleDeps): void {
  app.post('/api/logout', (c) => {
    deps.sessions.delete(c.get('session').id);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ loggedOut: true });
  });
}
