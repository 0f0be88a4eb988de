// The console's HTTP guards without a browser: login (start token, users file, refusals), CSRF on
// every change, the Host check, and the security headers. Requests go into the Hono app directly.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/console/auth/password-hash';
import { allowedHostsFor, consoleOptions } from '../../src/console/console-options';
import { ConsoleConfigError } from '../../src/console/errors';
import { buildConsole, type BuiltConsole } from '../../src/console/start-console';
import { newClient } from '../support/temporal';
import { HttpSession } from './http-session';

const TOKEN = 'local-start-token-0123456789abcdef';

describe('console login and CSRF', () => {
  let client: Client;
  let built: BuiltConsole;
  beforeAll(async () => {
    client = await newClient();
    const dir = await mkdtemp(path.join(tmpdir(), 'console-users-'));
    const usersFile = path.join(dir, 'users.json');
    await writeFile(usersFile, JSON.stringify({ users: [{ name: 'alice', passwordHash: await hashPassword('correct horse') }] }));
    const options = consoleOptions({ usersFile, token: TOKEN, localUser: 'owner', port: 4280 }, {});
    built = buildConsole(options, { client, allowedHosts: allowedHostsFor('127.0.0.1', 4280) });
  });
  afterAll(async () => {
    await built?.stop();
    await client?.connection.close();
  });

  it('sends a visitor without a session to the login page, and API calls get 401', async () => {
    const visitor = new HttpSession(built.app);
    const page = await visitor.request('/');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/login');
    expect((await visitor.request('/api/session')).status).toBe(401);
    expect((await visitor.postJson('/api/runs', { agent: 'general', task: 'x' }, { csrf: 'anything' })).status).toBe(401);
  });

  it('logs in with the start token as the local user, and with a users-file password by name', async () => {
    const owner = new HttpSession(built.app);
    expect((await owner.login('', TOKEN)).status).toBe(303);
    expect(await (await owner.request('/api/session')).json()).toEqual({ user: 'owner' });
    const alice = new HttpSession(built.app);
    expect((await alice.login('alice', 'correct horse')).status).toBe(303);
    expect(await (await alice.request('/api/session')).json()).toEqual({ user: 'alice' });
    expect(alice.csrfToken).not.toBe(owner.csrfToken);
  });

  it('refuses a wrong password, an unknown name, the token under another name, and a login form from another site', async () => {
    for (const [name, secret] of [['alice', 'wrong'], ['mallory', 'correct horse'], ['alice', TOKEN], ['', '']]) {
      const session = new HttpSession(built.app);
      const response = await session.login(name!, secret!);
      expect(response.status, `${name}/${secret}`).toBe(401);
      expect(await response.text()).toContain('Wrong name, password or token.');
      expect((await session.request('/api/session')).status).toBe(401);
    }
    // A cross-site form post: the login CSRF cookie does not match and the Origin is foreign.
    const forged = new HttpSession(built.app);
    const response = await forged.request('/login', { method: 'POST', origin: 'http://evil.example', body: new URLSearchParams({ login_csrf: 'x', name: '', secret: TOKEN }) });
    expect(response.status).toBe(403);
    expect((await forged.request('/api/session')).status).toBe(401);
  });

  it('refuses changes without the CSRF token, with a wrong one, or from another origin, before anything reaches Temporal', async () => {
    const alice = new HttpSession(built.app);
    await alice.login('alice', 'correct horse');
    const start = { agent: 'general', task: 'must never start' };
    for (const options of [{ csrf: null }, { csrf: 'not-the-token' }, { origin: 'http://evil.example' }]) {
      const response = await alice.postJson('/api/runs', start, options);
      expect(response.status, JSON.stringify(options)).toBe(403);
      expect(((await response.json()) as { error: string }).error).toContain('CSRF check failed');
    }
    // The same request with the token passes the guard (and fails validation, proving it got through).
    const invalid = await alice.postJson('/api/runs', { agent: '', task: '' });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toContain('name an agent');
  });

  it('logs out, after which the session and its token are dead', async () => {
    const alice = new HttpSession(built.app);
    await alice.login('alice', 'correct horse');
    expect((await alice.postJson('/api/logout', {}, { csrf: null })).status).toBe(403);
    expect((await alice.postJson('/api/logout', {})).status).toBe(200);
    expect((await alice.request('/api/session')).status).toBe(401);
  });

  it('answers only to its own Host names, and sets security headers on every answer', async () => {
    const page = await built.app.request('http://127.0.0.1:4280/login', { headers: { host: '127.0.0.1:4280' } });
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'sha256-");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(page.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
    const rebound = await built.app.request('http://attacker.example:4280/login', { headers: { host: 'attacker.example:4280' } });
    expect(rebound.status).toBe(421);
  });

  it('serves the UI library from node_modules and refuses paths outside its folders', async () => {
    const get = (p: string) => built.app.request(`http://127.0.0.1:4280${p}`, { headers: { host: '127.0.0.1:4280' } });
    for (const file of ['/vendor/preact.mjs', '/vendor/preact-hooks.mjs', '/vendor/htm.mjs', '/assets/app.js', '/assets/console.css']) {
      const response = await get(file);
      expect(response.status, file).toBe(200);
    }
    expect((await get('/vendor/..%2Fpackage.json')).status).toBe(404);
    expect((await get('/assets/..%2F..%2Fconsole-app.ts')).status).toBe(404);
  });

  it('refuses to start with an AGENT_MODEL_PRICES_FILE that is not prices, naming the file and the fix', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'console-prices-')), 'prices.json');
    await writeFile(file, JSON.stringify({ 'claude-sonnet-5-5': { input: 'three' } }));
    const options = consoleOptions({ token: TOKEN, localUser: 'owner', port: 4280 }, { AGENT_MODEL_PRICES_FILE: file });
    expect(() => buildConsole(options, { client })).toThrow(ConsoleConfigError);
    expect(() => buildConsole(options, { client })).toThrow(`AGENT_MODEL_PRICES_FILE=${file} must map model ids to USD per million tokens`);
    expect(() => buildConsole(options, { client })).toThrow(/claude-sonnet-5-5\.input: .*unset AGENT_MODEL_PRICES_FILE/s);
  });
});
