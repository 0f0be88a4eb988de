// The console's session is its own: a cookie from elsewhere (another loopback port can read and set
// the console's cookies, since cookies ignore ports) opens nothing without the session key; a session
// is bound to the origin it was made for; off loopback the cookie is `__Host-` and `Secure` and the
// Host check stays; logins are rate limited with a clear 429. Requests go into the Hono app directly.
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleOptions } from '../../src/console/console-options';
import { buildConsole, type BuiltConsole } from '../../src/console/start-console';
import { newClient } from '../support/temporal';
import { HttpSession, ORIGIN } from './http-session';

const TOKEN = 'local-start-token-0123456789abcdef';
const COOKIE = 'agent_console_session_4280';

describe('console session', () => {
  let client: Client;
  let built: BuiltConsole;
  beforeAll(async () => {
    client = await newClient();
    built = buildConsole(consoleOptions({ token: TOKEN, localUser: 'alice', port: 4280 }, {}), { client });
  });
  afterAll(async () => {
    await built?.stop();
    await client?.connection.close();
  });

  it('names its cookie after its port, HttpOnly and SameSite=Strict, without Secure on loopback http', async () => {
    const alice = new HttpSession(built.app);
    const response = await alice.login('', TOKEN);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`)) ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).not.toMatch(/Secure/i);
    // The key is in the fragment only, never in a cookie or the page shell.
    expect(response.headers.get('location')).toMatch(/^\/#session-key=/);
    const shell = await (await alice.request('/')).text();
    expect(shell).not.toContain(alice.csrfToken);
    expect(shell).not.toContain('alice');
  });

  it('treats a session cookie without its key as no session: a tossed or stolen cookie reads and changes nothing', async () => {
    const bob = new HttpSession(built.app);
    await bob.login('', TOKEN);
    // What a server on another port gets (it sees every 127.0.0.1 cookie) and plants in alice's browser.
    const tossed = new HttpSession(built.app);
    tossed.cookies.set(COOKIE, bob.cookies.get(COOKIE)!);
    expect((await tossed.request('/api/session')).status).toBe(401);
    expect((await tossed.request('/api/events')).status).toBe(401);
    expect((await tossed.postJson('/api/runs', { agent: 'general', task: 'must never start' }, { csrf: null })).status).toBe(403);
    expect((await tossed.postJson('/api/runs', { agent: 'general', task: 'must never start' }, { csrf: 'guess' })).status).toBe(403);
    // Beside alice's own session, the tossed value is ignored and alice stays alice.
    const alice = new HttpSession(built.app);
    await alice.login('', TOKEN);
    const both = await alice.request('/api/session', { headers: { cookie: `${COOKIE}=${bob.cookies.get(COOKIE)!}; ${COOKIE}=${alice.cookies.get(COOKIE)!}` } });
    expect(both.status).toBe(200);
    expect(await both.json()).toEqual({ user: 'alice' });
    // An event stream takes the key on its URL, since EventSource sends no headers.
    const stream = await built.app.request(`${ORIGIN}/api/events?key=${alice.csrfToken}`, { headers: { host: '127.0.0.1:4280', cookie: `${COOKIE}=${alice.cookies.get(COOKIE)!}` } });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
  });

  it('binds a session to the origin it was created for', async () => {
    const alice = new HttpSession(built.app);
    await alice.login('', TOKEN);
    const elsewhere = await built.app.request('http://localhost:4280/api/session', {
      headers: { host: 'localhost:4280', cookie: `${COOKIE}=${alice.cookies.get(COOKIE)!}`, 'x-csrf-token': alice.csrfToken },
    });
    expect(elsewhere.status).toBe(401);
  });

  it('rate limits logins per name with a 429 that says when to try again', async () => {
    const console = buildConsole(consoleOptions({ token: TOKEN, localUser: 'alice', port: 4280 }, {}), { client });
    try {
      for (let i = 0; i < 5; i += 1) expect((await new HttpSession(console.app).login('alice', `guess-${i}`)).status).toBe(401);
      const limited = await new HttpSession(console.app).login('alice', TOKEN);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('30');
      expect(await limited.text()).toContain('Too many failed logins for this name or from this address. Try again in 30 s.');
    } finally {
      await console.stop();
    }
  });

  it('refuses a parallel guess while one is being checked', async () => {
    const console = buildConsole(consoleOptions({ token: TOKEN, localUser: 'alice', port: 4280 }, {}), { client });
    try {
      const statuses = await Promise.all([0, 1, 2].map((i) => new HttpSession(console.app).login('alice', `parallel-${i}`).then((r) => r.status)));
      expect(statuses.sort()).toEqual([401, 429, 429]);
    } finally {
      await console.stop();
    }
  });

  it('off loopback uses a __Host- cookie with Secure, and keeps the Host check for the names it serves', async () => {
    const options = consoleOptions({ token: TOKEN, localUser: 'alice', host: '0.0.0.0', port: 4280, hostNames: ['console.example.com'] }, {});
    const remote = buildConsole(options, { client });
    try {
      const get = (host: string) => remote.app.request(`https://${host}/login`, { headers: { host } });
      expect((await get('attacker.example')).status).toBe(421);
      expect((await get('attacker.example:4280')).status).toBe(421);
      const page = await get('console.example.com');
      expect(page.status).toBe(200);
      expect((await get('127.0.0.1:4280')).status).toBe(200);
      const form = await page.text();
      const loginCsrf = /name="login_csrf" value="([^"]+)"/.exec(form)?.[1] ?? '';
      const login = await remote.app.request('https://console.example.com/login', {
        method: 'POST',
        headers: { host: 'console.example.com', origin: 'https://console.example.com', cookie: `__Host-agent_console_login=${loginCsrf}` },
        body: new URLSearchParams({ login_csrf: loginCsrf, name: '', secret: TOKEN }),
      });
      expect(login.status).toBe(303);
      const cookie = login.headers.getSetCookie().find((c) => c.startsWith('__Host-agent_console_session=')) ?? '';
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Domain=/i);
    } finally {
      await remote.stop();
    }
  });
});
