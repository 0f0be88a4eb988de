// The console's guards: security headers on every answer, a Host check against DNS rebinding, a
// session for everything but the login page, and CSRF checks (same-origin plus a per-session token
// in a header) on every request that changes something.
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { secureHeaders } from 'hono/secure-headers';
import { sameSecret } from '../auth/authenticator';
import type { ConsoleDeps, ConsoleEnv } from './console-context';

export const SESSION_COOKIE = 'agent_console_session';
export const CSRF_HEADER = 'x-csrf-token';

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
export function hostCheck(allowed: ReadonlySet<string> | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (allowed && !allowed.has((c.req.header('host') ?? '').toLowerCase())) return c.text('Unknown host', 421);
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
 * Every route behind it needs a live session: API calls get 401 (the page then shows the login),
 * page loads are sent to /login. Requests that change anything must also be same-origin and carry
 * the session's CSRF token in a header, which a cross-site form cannot set.
 */
export function requireSession(deps: Pick<ConsoleDeps, 'sessions'>): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const session = deps.sessions.get(getCookie(c, SESSION_COOKIE));
    const api = c.req.path.startsWith('/api/');
    if (!session) return api ? c.json({ error: 'Not logged in (or the session expired): log in again.' }, 401) : c.redirect('/login', 303);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const token = c.req.header(CSRF_HEADER) ?? '';
      if (!sameOrigin(c) || !token || !sameSecret(token, session.csrfToken)) {
        return c.json({ error: 'Refused: the request did not come from this console page (CSRF check failed). Reload the page.' }, 403);
      }
    }
    c.set('session', session);
    await next();
  };
}
