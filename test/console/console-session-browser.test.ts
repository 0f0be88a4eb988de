// The console's own session and its rendering, in Debian's Chromium: a server on another loopback
// port that plants another user's session cookie does not change who is logged in, and bidi and
// control characters in model-written text show escaped, as the CLI prints them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/console/auth/password-hash';
import { consoleOptions } from '../../src/console/console-options';
import { startConsole } from '../../src/console/start-console';
import { terminalSafe } from '../../src/client/terminal-safe';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { newClient, uniqueId } from '../support/temporal';
import { expectNoPageErrors, launchChromium, logIn, pageErrors } from './browser';

const TOKEN = 'session-browser-token-0123456789';

/** Another loopback port: whatever it is asked, it answers with the cookies it was told to plant. */
async function cookieTosser(cookies: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': cookies });
    res.end('<!doctype html><title>innocent page</title><p>nothing to see</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Logs in with a plain HTTP client (no browser, the session left unused): its cookie (`name=value`) and key. */
async function loginOverHttp(url: string, name: string, secret: string, nonce: string): Promise<{ cookie: string; key: string }> {
  const form = await fetch(`${url}login`);
  const csrfCookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
  const loginCsrf = /name="login_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const response = await fetch(`${url}login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: csrfCookie, origin: url.replace(/\/$/, ''), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login_csrf: loginCsrf, login_nonce: nonce, name, secret }),
  });
  expect(response.status).toBe(303);
  const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('agent_console_session_'))!;
  const key = /#session-key=([A-Za-z0-9_-]+)$/.exec(response.headers.get('location') ?? '')![1]!;
  return { cookie, key };
}

describe('console session and rendering in a browser', () => {
  const bed = useAgentTestbed();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('a cookie set from another loopback port does not change who is logged in', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'console-toss-'));
    const usersFile = path.join(dir, 'users.json');
    await writeFile(usersFile, JSON.stringify({ users: [{ name: 'bob', passwordHash: await hashPassword('bobs password') }] }));
    const client = await newClient();
    const running = await startConsole(consoleOptions({ port: 0, token: TOKEN, localUser: 'alice', usersFile, taskQueue: uniqueId('toss-q') }, {}), { client });
    const cookieName = `agent_console_session_${new URL(running.url).port}`;
    const bobs = await browser.newContext();
    const alices = await browser.newContext();
    try {
      // Bob logs in to the same console in his own browser and takes his session cookie.
      const bobPage = await bobs.newPage();
      await logIn(bobPage, running.url, 'bobs password', 'bob');
      await bobPage.getByText('Logged in as bob').waitFor();
      const bobId = (await bobs.cookies()).find((c) => c.name === cookieName)!.value;

      const page = await alices.newPage();
      const errors = pageErrors(page);
      await logIn(page, running.url, TOKEN);
      await page.getByText('Logged in as alice').waitFor();
      expect(page.url()).toBe(running.url);

      // A page on another port plants bob's session for /api, where it is sent before alice's own.
      const narrow = await cookieTosser([`${cookieName}=${bobId}; Path=/api; HttpOnly`]);
      await page.goto(narrow.url);
      await narrow.close();
      expect((await alices.cookies()).filter((c) => c.name === cookieName).map((c) => c.value)).toContain(bobId);
      await page.goto(running.url);
      await page.getByText('Logged in as alice').waitFor();
      expect(await page.evaluate(`import('/assets/api.js').then((api) => api.getJson('/api/session'))`)).toEqual({ user: 'alice' });

      // Then over alice's own cookie: her page cannot use bob's session (it lacks his key), so it asks her to log in.
      const wide = await cookieTosser([`${cookieName}=${bobId}; Path=/; HttpOnly`]);
      await page.goto(wide.url);
      await wide.close();
      await page.goto(running.url);
      await page.waitForURL(/\/login$/);
      expect(await page.content()).not.toContain('Logged in as bob');
      expectNoPageErrors(errors.filter((e) => !/status of 401/.test(e)));
    } finally {
      await alices.close();
      await bobs.close();
      await running.close();
      await client.connection.close();
    }
  });

  it('a session key in a link is taken only with the login that produced it: a planted cookie and #session-key= of another login are refused', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'console-fixation-'));
    const usersFile = path.join(dir, 'users.json');
    await writeFile(usersFile, JSON.stringify({ users: [{ name: 'bob', passwordHash: await hashPassword('bobs password') }] }));
    const client = await newClient();
    const running = await startConsole(consoleOptions({ port: 0, token: TOKEN, localUser: 'alice', usersFile, taskQueue: uniqueId('fixation-q') }, {}), { client });
    const cookieName = `agent_console_session_${new URL(running.url).port}`;
    const alices = await browser.newContext();
    try {
      // The insider logs in outside any browser and keeps his session unused: a cookie and a key.
      const bob = await loginOverHttp(running.url, 'bob', 'bobs password', 'N'.repeat(43));
      const claimAs = (session: { cookie: string; key: string }, nonce: string) =>
        fetch(`${running.url}api/session/claim`, {
          method: 'POST',
          headers: { cookie: session.cookie, 'x-csrf-token': session.key, 'content-type': 'application/json', origin: running.url.replace(/\/$/, '') },
          body: JSON.stringify({ nonce }),
        });

      const page = await alices.newPage();
      const errors = pageErrors(page);
      await logIn(page, running.url, TOKEN);
      await page.getByText('Logged in as alice').waitFor();
      // He plants his cookie from another loopback port and sends alice a link with his key.
      const toss = await cookieTosser([`${cookieName}=${bob.cookie.split('=')[1]}; Path=/; HttpOnly`]);
      await page.goto(toss.url);
      await toss.close();
      await page.goto(`${running.url}#session-key=${bob.key}`);
      await page.waitForURL(/\/login$/, { timeout: 15_000 });
      expect(await page.content()).not.toContain('Logged in as bob');
      expect(await page.evaluate(`window.localStorage.getItem('console-session-key')`)).not.toBe(bob.key);
      expectNoPageErrors(errors.filter((e) => !/status of (401|403)/.test(e)));

      // Over HTTP: a wrong nonce is refused, the login's own is taken once.
      expect((await claimAs(bob, 'M'.repeat(43))).status).toBe(403);
      expect((await claimAs(bob, 'N'.repeat(43))).status).toBe(200);
      expect((await claimAs(bob, 'N'.repeat(43))).status).toBe(403);
    } finally {
      await alices.close();
      await running.close();
      await client.connection.close();
    }
  });

  it('shows bidi overrides and control characters in model-written text escaped, exactly as the CLI does', async () => {
    const task = uniqueId('console-bidi');
    const sneaky = 'docs/\u202edm.hs';
    const note = 'ok\u001b[2Khidden \u2066isolate\u2069';
    bed.fake.script(task, [reply(text(`Writing ${sneaky}`), toolCall('write_file', { path: sneaky, content: `${note}\n` })), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      await waitForApprovals(handle);
      const running = await startConsole(
        consoleOptions({ port: 0, token: TOKEN, localUser: 'alice', taskQueue: harness.taskQueue, filter: `TaskQueue = '${harness.taskQueue}'`, workspace: harness.workspace, pollMs: 250 }, {}),
        { client: harness.client },
      );
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const errors = pageErrors(page);
        await logIn(page, running.url, TOKEN);
        const card = page.locator('.inbox .card.approval', { hasText: 'write_file' });
        await card.waitFor({ timeout: 10_000 });
        const shown = (await card.textContent()) ?? '';
        expect(shown).toContain(terminalSafe(sneaky));
        expect(shown).toContain('docs/\\u202edm.hs');
        expect(shown).toContain(terminalSafe(note));
        expect(shown).toContain('Writing docs/\\u202edm.hs');
        expect(shown).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u001b]/);
        // The page's rule is the CLI's own: the same results on every character the CLI escapes.
        const sample = Array.from({ length: 0xa0 }, (_, i) => String.fromCharCode(i)).join('') + '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\r\nplain ✓';
        const inPage = await page.evaluate(`import('/assets/safe-text.js').then((m) => m.safeText(${JSON.stringify(sample)}))`);
        expect(inPage).toBe(terminalSafe(sample));
        // The edit box too (issue 32): escapes that are still JSON of the same arguments, so no change yet.
        await card.getByRole('button', { name: 'Edit' }).click();
        const box = card.getByLabel('Edited arguments');
        const draft = await box.inputValue();
        expect(draft).toContain('docs/\\u202edm.hs');
        expect(draft).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u001b]/);
        await card.getByText('No change yet.').waitFor();
        // Pasted in: shown escaped at once.
        await box.fill(draft.replace('docs/', 'docs/\u2067'));
        expect(await box.inputValue()).toContain('docs/\\u2067');
        expectNoPageErrors(errors);
      } finally {
        await context.close();
        await running.close();
      }
      await handle.terminate('test done');
    });
  });
});
