// The console's guards: security headers on every answer, a Host check against DNS rebinding, a
// session for everything but the login page, and CSRF checks (same-origin plus a per-session token
// in a header) on every request that changes something.
import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { sameSecret } from '../auth/authenticator';
import type { Session } from '../auth/sessions';
import type { ConsoleDeps, ConsoleEnv, SessionCookie } from './console-context';

export const CSRF_HEADER = 'x-csrf-token';
/** The session key on an event stream's URL: EventSource cannot send a header. */
export const SESSION_KEY_PARAM = 'key';

export function sessionCookieFor(loopback: boolean, port: number): SessionCookie {
  return loopback
    ? { name: `agent_console_session_${port}`, loginName: `agent_console_login_${port}`, secure: false }
    : { name: '__Host-agent_console_session', loginName: '__Host-agent_console_login', secure: true };
}

/**
 * Every value the request carries under `name`. A cookie tossed in from another port (or path) arrives
 * beside our own under the same name, so all are considered, not just the first.
 */
export function cookieValues(c: Context, name: string): string[] {
  const values: string[] = [];
  for (const part of (c.req.header('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) values.push(part.slice(at + 1).trim());
  }
  return values;
}

/** `http://host:port` as the request names it: the origin a session is created for and bound to. */
export const requestOrigin = (c: Context, secure: boolean) => `${secure ? 'https' : 'http'}://${(c.req.header('host') ?? '').toLowerCase()}`;

/**
 * CSP without 'unsafe-inline': scripts and styles come only from the console itself; the one inline
 * script (the import map) is allowed by its hash. No framing, no plugins, no foreign form targets.
 */
export function securityHeaders(importMapHash: string): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'", `'sha256-${importMapHash}'`],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
    },
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    // Not 'no-referrer': with it, browsers send `Origin: null` on form posts, and the origin check
    // could no longer tell our own login form from a foreign one. Nothing leaves for other sites.
    referrerPolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    // The console is served over plain HTTP on loopback; HSTS there would only break other local sites.
    strictTransportSecurity: false,
  });
}

/** Pages and answers that carry decisions must not be cached by the browser or anything between. */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  if (!c.res.headers.has('cache-control')) c.res.headers.set('cache-control', 'no-store');
};

/** Refuses a Host header the console does not answer to: a rebound DNS name reaching loopback. */
export function hostCheck(allowed: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    if (!allowed.has((c.req.header('host') ?? '').toLowerCase())) return c.text('Unknown host', 421);
    await next();
  };
}

/** True when the request's Origin (if any) is this console itself; browsers send it on every POST. */
export function sameOrigin(c: Context): boolean {
  const origin = c.req.header('origin');
  const fetchSite = c.req.header('sec-fetch-site');
  if (!origin) return fetchSite !== 'cross-site' && fetchSite !== 'same-site';
  // An opaque origin (privacy settings, sandboxed frames): only the browser's own same-origin verdict will do.
  if (origin === 'null') return fetchSite === 'same-origin';
  try {
    return new URL(origin).host.toLowerCase() === (c.req.header('host') ?? '').toLowerCase();
  } catch {
    return false;
  }
}

/**
 * The live session among the cookie's values that was created for this origin and, when `key` is
 * given, whose key it is. A tossed value beside our own is skipped, not taken.
 */
export function findSession(c: Context, deps: Pick<ConsoleDeps, 'sessions' | 'cookie'>, key?: string): Session | undefined {
  const origin = requestOrigin(c, deps.cookie.secure);
  return cookieValues(c, deps.cookie.name)
    .map((id) => deps.sessions.get(id))
    .find((s) => s !== undefined && s.origin === origin && (key === undefined || (key !== '' && sameSecret(key, s.csrfToken))));
}

/**
 * Every route behind it needs a live session: API calls get 401 (the page then shows the login),
 * page loads are sent to /login. The page shell carries nothing of the session, so a cookie alone
 * opens it; every API call, reads included, must also carry the session's key (the `x-csrf-token`
 * header, or `?key=` on an event stream), which only the console's own page holds. A tossed or stolen
 * cookie without its key is treated as no session. Requests that change anything must also be
 * same-origin and carry the key in the header, which a cross-site form cannot set.
 */
export function requireSession(deps: Pick<ConsoleDeps, 'sessions' | 'cookie'>): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const api = c.req.path.startsWith('/api/');
    const read = c.req.method === 'GET' || c.req.method === 'HEAD';
    const notLoggedIn = () => (api ? c.json({ error: 'Not logged in (or the session expired): log in again.' }, 401) : c.redirect('/login', 303));
    const key = api ? (c.req.header(CSRF_HEADER) ?? (read ? c.req.query(SESSION_KEY_PARAM) : undefined) ?? '') : undefined;
    const session = findSession(c, deps, key);
    if (session && (read || sameOrigin(c))) {
      c.set('session', session);
      return next();
    }
    // A change that comes with a live session cookie but not its key, or from another origin, is a
    // CSRF refusal; anything else is simply not logged in.
    if (read || !findSession(c, deps)) return notLoggedIn();
    return c.json({ error: 'Refused: the request did not come from this console page (CSRF check failed). Reload the page.' }, 403);
  };
}
