// Issue 32, findings 3 and 4 and must-have 7, in Debian's Chromium against the real dev server, a real
// worker and the fake model: the page decides exactly what it showed. A click is held in flight (the
// browser has sent it, the console has not received it) while another approver edits the call, or
// while another call parks: the same interleaving a slow network or a busy console gives, made certain.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApproverKey, KEYS_DIR_ENV } from '../../src/client/approver-keys';
import type { RunningConsole } from '../../src/console/start-console';
import { statusQuery } from '../../src/contract/agent-run-api';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { argumentsHash } from '../../src/core/approvals/signatures/signed-message';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForApprovals, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { launchChromium, logIn } from './browser';
import { withBrowserConsole } from './browser-console';
import { consoleFor } from './console-for';

const TOKEN = 'browser-test-start-token-seen-calls-0123';
const general = builtinAgents.find((a) => a.name === 'general')!;
/** Delegates to `general` sub-agents, which park their writes for a person. */
const lead: AgentDefinitionInput = { ...general, name: 'lead', description: 'Delegates.', subAgents: ['general'] };

const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));
const write = (file: string, id: string) => toolCall('write_file', { path: file, content: file }, id);
const delegate = (task: string, id: string) => toolCall('delegate_task', { agent: 'general', task }, id);

const withConsole = <T>(harness: RunHarness, browser: Browser, body: (console: RunningConsole, page: Page) => Promise<T>) => withBrowserConsole(harness, browser, TOKEN, body);

/**
 * Holds the page's next POST matching `pattern` until `release` settles: the click has happened and
 * its body is fixed (returned), but the console has not seen it yet.
 */
async function holdNextPost(page: Page, pattern: string, release: Promise<unknown>): Promise<() => Promise<unknown>> {
  let sent!: (body: unknown) => void;
  const body = new Promise<unknown>((resolve) => (sent = resolve));
  await page.route(
    pattern,
    async (route) => {
      sent(route.request().postDataJSON());
      await release;
      await route.continue();
    },
    { times: 1 },
  );
  return () => body;
}

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the page decides exactly the calls it showed', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, lead] });
  let browser: Browser;
  let keys: string;
  let registryFile: string;
  const savedKeysDir = process.env[KEYS_DIR_ENV];

  beforeAll(async () => {
    browser = await launchChromium();
    keys = await mkdtemp(path.join(tmpdir(), 'seen-calls-keys-'));
    registryFile = path.join(keys, 'approvers.json');
    await writeFile(registryFile, JSON.stringify(Object.assign({}, ...['alice', 'bob'].map((name) => createApproverKey(name, { dir: keys }).registryEntry))));
    // The consoles of this process sign as their logged-in person with these keys.
    process.env[KEYS_DIR_ENV] = keys;
  });
  afterEach(() => {
    // Each test sets what it needs; none leaks into the next.
    process.env[KEYS_DIR_ENV] = keys;
  });
  afterAll(async () => {
    if (savedKeysDir === undefined) delete process.env[KEYS_DIR_ENV];
    else process.env[KEYS_DIR_ENV] = savedKeysDir;
    await browser?.close();
    await rm(keys, { recursive: true, force: true });
  });

  it('finding 3: Approve on a card whose call another approver edited meanwhile is refused, shown as refused, and the edit comes as a new card', async () => {
    const task = uniqueId('stale-card-browser');
    const original = { command: 'ls -la' };
    const evil = { command: 'eval "touch PWNED-stale.txt"' };
    bed.fake.script(task, [reply(toolCall('shell', original, 'toolu_ls')), done('done')]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async (harness) => {
      const handle = await harness.start({ agent: 'general', task, approvers: ['alice', 'bob'] });
      await waitForApprovals(handle);
      // Bob runs a console of his own.
      const bobs = await consoleFor(harness, ['bob']);
      try {
        await withConsole(harness, browser, async (running, page) => {
          await logIn(page, running.url, TOKEN);
          // A card by the command its arguments show (the rule line may quote another).
          const cardShowing = (command: string) => page.locator('.inbox .card.approval').filter({ has: page.locator('pre.command', { hasText: `$ ${command}` }) });
          const seen = cardShowing(original.command);
          await seen.waitFor({ timeout: 20_000 });

          // Alice clicks Approve on `ls -la`; the click is on its way while bob edits the call into an eval.
          const bobDone = gate();
          const sent = await holdNextPost(page, '**/api/decisions', bobDone.opened);
          await seen.getByRole('button', { name: 'Approve', exact: true }).click();
          expect(await sent()).toMatchObject({ workflowId: handle.workflowId, callId: 'toolu_ls', decision: 'approve', argumentsHash: argumentsHash(original) });

          const bob = await bobs.as('bob');
          const edit = await bob.postJson('/api/decisions', { workflowId: handle.workflowId, callId: 'toolu_ls', decision: 'approve', arguments: evil, argumentsHash: argumentsHash(original) });
          expect(edit.status).toBe(200);
          // The edit is not understood (eval), so the run parks it again under the same id.
          await waitFor(async () => ((await handle.query(statusQuery)).pendingApprovals[0]?.input as { command?: string } | undefined)?.command === evil.command || undefined, 'the edited call to park again');

          const answered = page.waitForResponse((r) => r.url().endsWith('/api/decisions') && r.request().method() === 'POST');
          bobDone.open();
          const response = await answered;
          expect(response.status()).toBe(409);
          expect(await response.json()).toMatchObject({ outcome: 'refused', message: expect.stringContaining('the arguments of toolu_ls changed since the page showed them') });

          // The page says so, plainly and where it is seen.
          await page.locator('.notices .notice.error', { hasText: 'the arguments of toolu_ls changed since the page showed them' }).waitFor({ timeout: 5_000 });
          // The edit is a card of its own, showing the arguments the run has now; the old card is gone.
          const fresh = cardShowing(evil.command);
          await fresh.waitFor({ timeout: 20_000 });
          expect(await page.locator('.inbox .card.approval').count()).toBe(1);
          expect(await seen.count()).toBe(0);
          expect(await fresh.getByRole('button', { name: 'Approve', exact: true }).isEnabled()).toBe(true);

          // Nothing ran, and no decision of alice's was taken.
          const status = await handle.query(statusQuery);
          expect(status.phase).toBe('waiting_approval');
          expect(status.decisions.filter((d) => d.approver === 'alice')).toEqual([]);
          expect(existsSync(path.join(harness.workspace, 'PWNED-stale.txt'))).toBe(false);

          // It needs its own decision: alice rejects what she now sees.
          await fresh.getByRole('button', { name: 'Reject', exact: true }).click();
          expect((await handle.result()).status).toBe('completed');
          expect(existsSync(path.join(harness.workspace, 'PWNED-stale.txt'))).toBe(false);
          const decided = (await handle.query(statusQuery)).decisions.filter((d) => d.approver === 'alice');
          expect(decided).toEqual([expect.objectContaining({ callId: 'toolu_ls', decision: 'reject' })]);
        });
      } finally {
        await bobs.built.stop();
      }
    });
  });

  /**
   * Two calls parked and shown; the click on "Approve all 2" is on its way while a second sub-agent
   * parks a third call: exactly the two shown are approved, the third stays parked and is shown.
   */
  async function approveAllWhileAThirdParks(findButton: (page: Page, console: RunningConsole, rootId: string) => Promise<Locator>): Promise<void> {
    const [task, subA, subB] = [uniqueId('all-shown'), uniqueId('all-shown-a'), uniqueId('all-shown-b')];
    const late = gate();
    bed.fake.script(task, [reply(delegate(subA, 'toolu_a'), delegate(subB, 'toolu_b')), done('lead done')]);
    bed.fake.script(subA, [reply(write('a1.txt', 'toolu_a1'), write('a2.txt', 'toolu_a2')), done('a done')]);
    // The second sub-agent's model answers only when the test says: its call parks after the page rendered.
    bed.fake.script(subB, [reply(write('PWNED-late.txt', 'toolu_b1')).until(late.opened), done('b done')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const root = await harness.start({ agent: 'lead', task });
      const [childA, childB] = [`${root.workflowId}/sub-toolu_a`, `${root.workflowId}/sub-toolu_b`];
      await waitForApprovals(root, 2, 30_000);
      await withConsole(harness, browser, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        const approveAll = await findButton(page, running, root.workflowId);
        expect(await page.locator('.inbox .card.approval').count()).toBe(2);

        const parkedLate = gate();
        const sent = await holdNextPost(page, '**/approve-all', parkedLate.opened);
        await approveAll.click();
        const shown = [
          { workflowId: childA, callId: 'toolu_a1', argumentsHash: argumentsHash({ path: 'a1.txt', content: 'a1.txt' }) },
          { workflowId: childA, callId: 'toolu_a2', argumentsHash: argumentsHash({ path: 'a2.txt', content: 'a2.txt' }) },
        ];
        const body = (await sent()) as { calls: unknown[] };
        expect(body.calls).toHaveLength(2);
        expect(body.calls).toEqual(expect.arrayContaining(shown));

        // While the click is on its way, the second sub-agent parks a call nobody has seen.
        late.open();
        await waitForApprovals(root, 3, 30_000);
        const answered = page.waitForResponse((r) => r.url().endsWith('/approve-all'));
        parkedLate.open();
        expect((await answered).status()).toBe(200);

        expect((await harness.client.workflow.getHandle(childA).query(statusQuery)).decisions.map((d) => [d.callId, d.decision, d.approver]).sort()).toEqual([
          ['toolu_a1', 'approve', 'alice'],
          ['toolu_a2', 'approve', 'alice'],
        ]);
        const bStatus = await harness.client.workflow.getHandle(childB).query(statusQuery);
        expect(bStatus.decisions).toEqual([]);
        expect(bStatus.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_b1']);
        // The root learns from its children's reports that the first one's calls are decided.
        await expect.poll(async () => (await root.query(statusQuery)).pendingApprovals.map((p) => [p.workflowId, p.callId]), { timeout: 15_000 }).toEqual([[childB, 'toolu_b1']]);

        // The page shows it still, as a card of its own (one call: no "Approve all" in the inbox).
        const lateCard = page.locator('.inbox .card.approval', { hasText: 'PWNED-late.txt' });
        await lateCard.waitFor({ timeout: 20_000 });
        await expect.poll(() => page.locator('.inbox .card.approval').count(), { timeout: 10_000 }).toBe(1);
        expect(await page.locator('.approve-all-bar').count()).toBe(0);
        expect(existsSync(path.join(harness.workspace, 'PWNED-late.txt'))).toBe(false);

        await lateCard.getByRole('button', { name: 'Reject', exact: true }).click();
        expect((await root.result()).completion?.summary).toBe('lead done');
        expect(existsSync(path.join(harness.workspace, 'PWNED-late.txt'))).toBe(false);
      });
    });
  }

  it('finding 4: "Approve all" in the inbox decides the two calls shown; a third that parked after the click stays parked and shown', () =>
    approveAllWhileAThirdParks(async (page, _console, rootId) => {
      const button = page.locator('.approve-all-bar li', { hasText: rootId }).getByRole('button', { name: 'Approve all 2' });
      await button.waitFor({ timeout: 20_000 });
      return button;
    }));

  it('finding 4, the run view: its "Approve all" decides the two calls shown, not a third that parked after the click', () =>
    approveAllWhileAThirdParks(async (page, running, rootId) => {
      // The inbox first, so both calls are known to have been drawn before the run's page opens.
      await page.locator('.approve-all-bar li', { hasText: rootId }).getByRole('button', { name: 'Approve all 2' }).waitFor({ timeout: 20_000 });
      await page.goto(`${running.url}#/runs/${encodeURIComponent(rootId)}`);
      const button = page.locator('.run-view .run-approvals').getByRole('button', { name: 'Approve all 2' });
      await button.waitFor({ timeout: 20_000 });
      return button;
    }));

  it('must-have 7: two sub-agents parking the same call id are two rows, and "Approve all" decides both, each in its own run', async () => {
    const [task, subA, subB] = [uniqueId('same-id-browser'), uniqueId('same-id-browser-a'), uniqueId('same-id-browser-b')];
    bed.fake.script(task, [reply(delegate(subA, 'toolu_a'), delegate(subB, 'toolu_b')), done('lead done')]);
    bed.fake.script(subA, [reply(write('a.txt', 'toolu_same')), done('a done')]);
    bed.fake.script(subB, [reply(write('b.txt', 'toolu_same')), done('b done')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const root = await harness.start({ agent: 'lead', task });
      const [childA, childB] = [`${root.workflowId}/sub-toolu_a`, `${root.workflowId}/sub-toolu_b`];
      await waitForApprovals(root, 2, 30_000);
      await withConsole(harness, browser, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        const approveAll = page.locator('.approve-all-bar li', { hasText: root.workflowId }).getByRole('button', { name: 'Approve all 2' });
        await approveAll.waitFor({ timeout: 20_000 });
        // Two rows, each naming the sub-agent run that waits.
        for (const child of [childA, childB]) await page.locator('.inbox .card.approval', { hasText: child }).waitFor();
        expect(await page.locator('.inbox .card.approval').count()).toBe(2);

        const answered = page.waitForResponse((r) => r.url().endsWith('/approve-all'));
        await approveAll.click();
        const response = await answered;
        const body = response.request().postDataJSON() as { calls: { workflowId: string; callId: string }[] };
        expect(body.calls.map((c) => [c.workflowId, c.callId]).sort()).toEqual([[childA, 'toolu_same'], [childB, 'toolu_same']]);
        expect(response.status()).toBe(200);

        for (const child of [childA, childB]) {
          const decided = await waitFor(async () => {
            const s = await harness.client.workflow.getHandle(child).query(statusQuery);
            return s.decisions.length > 0 ? s.decisions : undefined;
          }, `the decision to reach ${child}`);
          expect(decided).toEqual([expect.objectContaining({ callId: 'toolu_same', decision: 'approve', approver: 'alice' })]);
        }
        expect((await root.result()).completion?.summary).toBe('lead done');
        await expect.poll(() => page.locator('.inbox .card.approval').count(), { timeout: 10_000 }).toBe(0);
      });
    });
  });
});
