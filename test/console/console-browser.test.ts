// The console end to end, in Debian's Chromium, against the real dev server, a real worker and the
// fake model: logging in, starting a run, deciding from the page and from the CLI, refusals, questions.
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningConsole } from '../../src/console/start-console';
import { statusQuery } from '../../src/contract/agent-run-api';
import type { RunStatus } from '../../src/contract/run-status';
import { argumentsHash } from '../../src/core/approvals/signatures/signed-message';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForApprovals, waitForPhase, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';
import { agentctl } from '../client/agentctl-process';
import { launchChromium, logIn } from './browser';
import { withBrowserConsole } from './browser-console';

/**
 * The status of a run that has ended. Its worker replays the whole history to answer, and on a loaded
 * machine (a fresh-clone CI, beside the package tests' installs) a first query once timed out: asked
 * again until it answers.
 */
function closedStatus(handle: WorkflowHandle): Promise<RunStatus> {
  return waitFor(() => handle.query(statusQuery).catch(() => undefined), 'the ended run to answer its status query', 60_000);
}

const TOKEN = 'browser-test-start-token-0123456789';
const complete = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

const withConsole = <T>(harness: RunHarness, body: (console: RunningConsole, page: Page) => Promise<T>, browser: Browser) => withBrowserConsole(harness, browser, TOKEN, body);

describe('approval console in a browser', () => {
  const bed = useAgentTestbed();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('logs in, starts a run, shows its write_file diff within 2 s, approves it and shows the completion; a CLI decision empties the inbox', async () => {
    const task = uniqueId('console-start');
    const other = uniqueId('console-cli');
    // Known usage, so the run view's cost is known: this plus the completion's 100 in / 20 out.
    const usage = { input_tokens: 200_000, output_tokens: 10_000, cache_creation_input_tokens: 40_000, cache_read_input_tokens: 1_000_000 };
    bed.fake.script(task, [
      reply(text('I will update the notes.'), toolCall('write_file', { path: 'notes.md', content: 'first line\nsecond line, new\n' })).withUsage(usage),
      complete('Updated notes.md for the console test'),
    ]);
    bed.fake.script(other, [reply(toolCall('shell', { command: 'echo from-the-cli && ls' })), complete('listed')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      await writeFile(path.join(harness.workspace, 'notes.md'), 'first line\nsecond line, old\n');
      await withConsole(harness, async (running, page) => {
        // A wrong token is refused, and the form says so.
        await logIn(page, running.url, 'not-the-token');
        await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong name, password or token.');
        await logIn(page, running.url, TOKEN);
        await page.getByText('Logged in as').waitFor();

        await page.getByLabel('Task').fill(task);
        await page.getByLabel('Max iterations').fill('5');
        await page.getByRole('button', { name: 'Start run' }).click();
        await page.waitForURL(/#\/runs\//);
        const workflowId = decodeURIComponent(page.url().split('#/runs/')[1]!);
        const handle = harness.client.workflow.getHandle(workflowId);
        // Measured from when the run parked (its own clock, this machine), not from when the test noticed.
        const parkedAt = Date.parse((await waitForApprovals(handle)).pendingApprovals[0]!.requestedAt);
        const card = page.locator('.inbox .card.approval', { hasText: 'write_file' });
        await card.waitFor({ timeout: 2_000 });
        expect(Date.now() - parkedAt).toBeLessThan(2_000);
        await expect.poll(() => card.locator('.rule').textContent()).toContain('write');
        expect(await card.locator('.context').textContent()).toContain('I will update the notes.');
        expect(await card.locator('.diff .del').allTextContents()).toEqual(['-second line, old\n']);
        expect(await card.locator('.diff .add').allTextContents()).toEqual(['+second line, new\n']);
        const status = await handle.query(statusQuery);
        expect(status.user).toBe('alice');
        expect(status.maxIterations).toBe(5);

        await card.getByRole('button', { name: 'Approve' }).click();
        await page.locator('.completion .summary', { hasText: 'Updated notes.md for the console test' }).waitFor({ timeout: 15_000 });
        expect((await closedStatus(handle)).decisions).toEqual([expect.objectContaining({ decision: 'approve', approver: 'alice', via: 'update' })]);
        await card.waitFor({ state: 'detached' });
        // Usage and its estimated cost at the balanced tier's default model, claude-sonnet-5-5 ($3 in, $15 out,
        // cache writes 1.25x and reads 0.1x input, per million): 200,100 in, 10,020 out, 40,000 written, 1,000,000 read.
        expect((await closedStatus(handle)).usage).toEqual({ inputTokens: 200_100, outputTokens: 10_020, cacheCreationInputTokens: 40_000, cacheReadInputTokens: 1_000_000 });
        const expectedUsd = (200_100 * 3 + 10_020 * 15 + 40_000 * 3.75 + 1_000_000 * 0.3) / 1_000_000;
        expect(expectedUsd).toBeCloseTo(1.2006, 6);
        await expect.poll(() => page.locator('.usage .cost').textContent()).toBe('≈ $1.20 at claude-sonnet-5-5 list prices');

        // A second run parks; deciding it from the CLI removes it from the open page.
        const second = await harness.start({ agent: 'general', task: other });
        await waitForApprovals(second);
        const shellCard = page.locator('.inbox .card.approval', { hasText: 'echo from-the-cli' });
        await shellCard.waitFor({ timeout: 2_000 });
        expect(await shellCard.locator('.command').textContent()).toBe('$ echo from-the-cli && ls');
        const cli = await agentctl(['approve', second.workflowId], { TEMPORAL_ADDRESS: temporalAddress(), USER: 'cli-tester' });
        expect(cli.code, cli.stderr).toBe(0);
        await shellCard.waitFor({ state: 'detached', timeout: 5_000 });
        await page.getByText('Nothing waits for a decision.').waitFor();
        await second.result();
      }, browser);
    });
  });

  it('shows a call that someone else must decide read-only, and a decision sent anyway is refused by the run with its reason', async () => {
    const task = uniqueId('console-not-approver');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'x.md', content: 'x' })), complete('done')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task, approvers: ['someone-else'] });
      const { pendingApprovals } = await waitForApprovals(handle);
      await withConsole(harness, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        const card = page.locator('.inbox .card.approval.read-only');
        await card.waitFor({ timeout: 5_000 });
        expect(await card.locator('.read-only-note').textContent()).toContain('Only someone-else may decide this call; you are alice.');
        expect(await card.getByRole('button', { name: 'Approve' }).count()).toBe(0);
        // A stale page or a hand-made request still goes through the page's own code, and the run refuses it.
        // With the hash the card would carry (the console requires it), so the refusal is the run's own.
        const call = { workflowId: handle.workflowId, callId: pendingApprovals[0]!.callId, argumentsHash: argumentsHash(pendingApprovals[0]!.input) };
        // A string, so vitest's transform leaves the page's dynamic import alone.
        await page.evaluate(`import('/assets/api.js').then((api) => api.decide(${JSON.stringify(call)}, 'approve'))`);
        await expect
          .poll(() => page.locator('.notices .notice.error').textContent())
          .toContain('"alice" may not decide calls of this run (approvers: someone-else); the call stays parked');
        expect((await handle.query(statusQuery)).phase).toBe('waiting_approval');
      }, browser);
      await handle.terminate('test done');
    });
  });

  it('answers a question from the page, then rejects one call and approves the next with the keyboard', async () => {
    const task = uniqueId('console-question');
    bed.fake.script(task, [
      reply(toolCall('need_more_information', { question: 'Which <b>file</b> should I read?', context: 'There are two candidates.' })),
      reply(toolCall('shell', { command: 'cat answer.txt' })),
      reply(toolCall('shell', { command: 'echo second' })),
      complete('answered'),
    ]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      await waitForPhase(handle, 'waiting_input');
      await withConsole(harness, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        const card = page.locator('.inbox .card.question');
        await card.waitFor({ timeout: 5_000 });
        // Model-written text is shown as text: the markup is not interpreted.
        expect(await card.locator('.question-text').textContent()).toBe('Which <b>file</b> should I read?');
        expect(await card.locator('.question-text b').count()).toBe(0);
        await card.getByLabel('Your answer').fill('read answer.txt');
        await card.getByRole('button', { name: 'Answer' }).click();
        await card.waitFor({ state: 'detached', timeout: 5_000 });

        const shellCard = page.locator('.inbox .card.approval', { hasText: 'cat answer.txt' });
        await shellCard.waitFor({ timeout: 5_000 });
        await page.keyboard.press('j');
        await page.keyboard.press('r');
        await shellCard.waitFor({ state: 'detached', timeout: 5_000 });
        await page.locator('.inbox .card.approval', { hasText: 'echo second' }).waitFor({ timeout: 5_000 });
        await page.keyboard.press('a');
        expect((await handle.result()).status).toBe('completed');
      }, browser);
      const request = bed.fake.requestsFor(task)[1];
      expect(JSON.stringify(request?.body.messages.at(-1))).toContain('The user replied: read answer.txt');
      expect((await closedStatus(handle)).decisions).toEqual([
        expect.objectContaining({ tool: 'shell', decision: 'reject', approver: 'alice' }),
        expect.objectContaining({ tool: 'shell', decision: 'approve', approver: 'alice' }),
      ]);
    });
  });

  it('moves the selection with j and k, and a approves the selected call, not the first', async () => {
    const task = uniqueId('console-jk');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'one.md', content: 'one' }), toolCall('write_file', { path: 'two.md', content: 'two' })), complete('both decided')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      await waitForApprovals(handle, 2);
      const { pendingApprovals } = await handle.query(statusQuery);
      const callOf = (file: string) => pendingApprovals.find((p) => (p.input as { path: string }).path === file)!.callId;
      await withConsole(harness, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        const cards = page.locator('.inbox .card.approval');
        await expect.poll(() => cards.count(), { timeout: 5_000 }).toBe(2);
        // Which file each card shows, top to bottom, and which card is selected.
        const order = await cards.evaluateAll((els) => els.map((el) => (el.textContent?.includes('one.md') ? 'one.md' : 'two.md')));
        expect([...order].sort()).toEqual(['one.md', 'two.md']);
        const selected = () => page.locator('.inbox .card.approval.selected').evaluateAll((els) => els.map((el) => (el.textContent?.includes('one.md') ? 'one.md' : 'two.md')));
        expect(await selected()).toEqual([order[0]]);
        await page.keyboard.press('j');
        await expect.poll(selected).toEqual([order[1]]);
        await page.keyboard.press('j'); // the last item stays selected
        await expect.poll(selected).toEqual([order[1]]);
        await page.keyboard.press('k');
        await expect.poll(selected).toEqual([order[0]]);
        await page.keyboard.press('k'); // and so does the first
        await expect.poll(selected).toEqual([order[0]]);
        await page.keyboard.press('j');
        await expect.poll(selected).toEqual([order[1]]);

        // `a` approves the selected call, the second one, and leaves the first waiting, selected.
        await page.keyboard.press('a');
        await expect.poll(() => cards.count(), { timeout: 5_000 }).toBe(1);
        expect((await handle.query(statusQuery)).decisions).toEqual([expect.objectContaining({ callId: callOf(order[1]!), decision: 'approve', approver: 'alice' })]);
        expect((await handle.query(statusQuery)).pendingApprovals.map((p) => p.callId)).toEqual([callOf(order[0]!)]);
        expect(await selected()).toEqual([order[0]]);
        await page.keyboard.press('r');
        expect((await handle.result()).status).toBe('completed');
        expect((await closedStatus(handle)).decisions.map((d) => [d.callId, d.decision])).toEqual([
          [callOf(order[1]!), 'approve'],
          [callOf(order[0]!), 'reject'],
        ]);
      }, browser);
    });
  });

  it('a acts on the call the page shows selected, even when it is pressed before the next frame', async () => {
    const task = uniqueId('console-fast-keys');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'one.md', content: 'one' }), toolCall('write_file', { path: 'two.md', content: 'two' })), complete('both decided')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      await waitForApprovals(handle, 2);
      await withConsole(harness, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        await expect.poll(() => page.locator('.inbox .card.approval').count(), { timeout: 5_000 }).toBe(2);
        const [first, second] = await page.locator('.inbox .card.approval').evaluateAll((els) => els.map((el) => el.getAttribute('data-key')));
        // `j`, then `a` as soon as the page shows the second card selected, before the browser's next frame:
        // what a quick hand does on a busy machine, where a frame can take far longer than a key press.
        // A string, as the page runs it: this file is typed without the DOM.
        const shownWhenPressed = await page.evaluate(`(async () => {
          const selectedKey = () => document.querySelector('.inbox .card.selected')?.getAttribute('data-key');
          const press = (key) => document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
          const before = selectedKey();
          press('j');
          for (let i = 0; i < 1000 && selectedKey() === before; i++) await Promise.resolve();
          const shown = selectedKey();
          press('a');
          return shown;
        })()`);
        expect(shownWhenPressed).toBe(second);
        await expect.poll(() => page.locator('.inbox .card.approval').count(), { timeout: 5_000 }).toBe(1);
        // A card's key is its run and call: `${workflowId}/${callId}`.
        const { decisions, pendingApprovals } = await handle.query(statusQuery);
        expect(decisions.map((d) => [`${handle.workflowId}/${d.callId}`, d.decision])).toEqual([[second, 'approve']]);
        expect(pendingApprovals.map((p) => `${handle.workflowId}/${p.callId}`)).toEqual([first]);
      }, browser);
      await handle.terminate('test done');
    });
  });

  it('keeps the selection on the same call when a newer call arrives above it, and a approves that call', async () => {
    const task = uniqueId('console-reorder');
    const later = uniqueId('console-reorder-later');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'one.md', content: 'one' }), toolCall('write_file', { path: 'two.md', content: 'two' })), complete('both decided')]);
    bed.fake.script(later, [reply(toolCall('write_file', { path: 'three.md', content: 'three' })), complete('decided')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      await waitForApprovals(handle, 2);
      const { pendingApprovals } = await handle.query(statusQuery);
      const callOf = (file: string) => pendingApprovals.find((p) => (p.input as { path: string }).path === file)!.callId;
      await withConsole(harness, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        const cards = page.locator('.inbox .card.approval');
        const fileOf = (els: { textContent: string | null }[]) => els.map((el) => /(one|two|three)\.md/.exec(el.textContent ?? '')?.[0]);
        await expect.poll(() => cards.count(), { timeout: 5_000 }).toBe(2);
        const order = await cards.evaluateAll(fileOf);
        const selected = () => page.locator('.inbox .card.approval.selected').evaluateAll(fileOf);
        expect(await selected()).toEqual([order[0]]);

        // A newer run parks a call; newest first, it comes in above the selected card, which stays selected.
        const second = await harness.start({ agent: 'general', task: later });
        await waitForApprovals(second);
        // The console learns of the new run from its next poll (visibility, then a status query per live
        // run of the namespace, which the suite shares with every other file): in a loaded suite run one
        // took longer than 5 s. The test is about order and selection, not how soon the card comes.
        await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(3);
        expect(await cards.evaluateAll(fileOf)).toEqual(['three.md', ...order]);
        expect(await selected()).toEqual([order[0]]);

        // `j` moves down from there, and `a` approves that call, not the one at the top nor the one at its index before.
        await page.keyboard.press('j');
        await expect.poll(selected).toEqual([order[1]]);
        await page.keyboard.press('a');
        await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(2);
        expect((await handle.query(statusQuery)).decisions).toEqual([expect.objectContaining({ callId: callOf(order[1]!), decision: 'approve', approver: 'alice' })]);
        expect((await second.query(statusQuery)).decisions).toEqual([]);
        await second.terminate('test done');
      }, browser);
      await handle.terminate('test done');
    });
  });

  it('starts a thread from the form and sends it a follow-up from the run view', async () => {
    const task = uniqueId('console-thread');
    bed.fake.script(task, [complete('The first answer.'), complete('The answer to the follow-up.')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      await withConsole(harness, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        await page.getByLabel('Task').fill(task);
        await page.getByLabel('Thread (takes follow-ups)').check();
        await page.getByRole('button', { name: 'Start run' }).click();
        await page.waitForURL(/#\/runs\//);
        await page.locator('.completion .summary', { hasText: 'The first answer.' }).waitFor({ timeout: 15_000 });
        await page.getByLabel('Follow-up message').fill('Please also do the second part.');
        await page.getByRole('button', { name: 'Send' }).click();
        await page.locator('.completion .summary', { hasText: 'The answer to the follow-up.' }).waitFor({ timeout: 15_000 });
        expect(await page.locator('.thread-completions li').allTextContents()).toEqual(['success: The first answer.']);
        const workflowId = decodeURIComponent(page.url().split('#/runs/')[1]!);
        expect(JSON.stringify(bed.fake.requestsFor(task)[1]?.body.messages.at(-1))).toContain('Please also do the second part.');
        await harness.client.workflow.getHandle(workflowId).terminate('test done');
      }, browser);
    });
  });
});
