// Drives the console's Hono app in-process (`app.request`), as a browser would: a cookie jar, the
// login form with its hidden token, and the session key taken from the fragment the login redirects
// to, sent with every API read as the page does (and with changes, unless a test says otherwise).
import type { Hono } from 'hono';
import type { ConsoleEnv } from '../../src/console/http/console-context';

export const ORIGIN = 'http://127.0.0.1:4280';

export class HttpSession {
  readonly cookies = new Map<string, string>();
  csrfToken = '';
  constructor(private readonly app: Hono<ConsoleEnv>) {}

  async request(path: string, init: RequestInit & { origin?: string | null } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('host', new URL(ORIGIN).host);
    if (init.origin !== null && init.method && init.method !== 'GET') headers.set('origin', init.origin ?? ORIGIN);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const read = !init.method || init.method === 'GET';
    if (read && path.startsWith('/api/') && this.csrfToken && !headers.has('x-csrf-token')) headers.set('x-csrf-token', this.csrfToken);
    const response = await this.app.request(`${ORIGIN}${path}`, { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, value] = pair!.split(/=(.*)/s) as [string, string];
      if (/max-age=0/i.test(cookie) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** GET /login, then POST the form; on success reads the session key from the redirect's fragment. */
  async login(name: string, secret: string): Promise<Response> {
    const form = await (await this.request('/login')).text();
    const loginCsrf = /name="login_csrf" value="([^"]+)"/.exec(form)?.[1] ?? '';
    const response = await this.request('/login', { method: 'POST', body: new URLSearchParams({ login_csrf: loginCsrf, name, secret }) });
    if (response.status === 303) this.csrfToken = /#session-key=([A-Za-z0-9_-]+)$/.exec(response.headers.get('location') ?? '')?.[1] ?? '';
    return response;
  }

  postJson(path: string, body: unknown, options: { csrf?: string | null; origin?: string | null } = {}): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const token = options.csrf === undefined ? this.csrfToken : options.csrf;
    if (token !== null) headers['x-csrf-token'] = token;
    return this.request(path, { method: 'POST', headers, body: JSON.stringify(body), origin: options.origin });
  }
}
