// Issue 23 in the console, in Debian's Chromium against the real dev server, a real worker and the
// fake model: editing a call's arguments (the change is shown before anything is sent), "Approve all"
// and the permission mode switch.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningConsole } from '../../src/console/start-console';
import { statusQuery } from '../../src/contract/agent-run-api';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitForApprovals, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { launchChromium, logIn } from './browser';
import { withBrowserConsole } from './browser-console';

const TOKEN = 'browser-test-start-token-approvals-0123';
const complete = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));
const write = (file: string) => toolCall('write_file', { path: file, content: 'x' });

const withConsole = <T>(harness: RunHarness, browser: Browser, body: (console: RunningConsole, page: Page) => Promise<T>) => withBrowserConsole(harness, browser, TOKEN, body);

describe('console: edit, approve all, mode', () => {
  const bed = useAgentTestbed();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('shows the edited arguments as a diff before sending, then runs the edited call and not the original', async () => {
    const task = uniqueId('console-edit');
    bed.fake.script(task, [reply(toolCall('shell', { command: 'touch asked.txt' })), complete('edited and ran')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      await waitForApprovals(handle);
      await withConsole(harness, browser, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        const card = page.locator('.inbox .card.approval', { hasText: 'touch asked.txt' });
        await card.waitFor({ timeout: 5_000 });
        await card.getByRole('button', { name: 'Edit' }).click();
        await card.getByLabel('Edited arguments').fill('{"command": "touch edited.txt"}');
        const diff = card.locator('.edit-diff');
        await diff.waitFor();
        expect(await diff.locator('.del').allTextContents()).toEqual(['-command: "touch asked.txt"\n']);
        expect(await diff.locator('.add').allTextContents()).toEqual(['+command: "touch edited.txt"\n']);
        // Seen, not sent: the run still waits.
        expect((await handle.query(statusQuery)).decisions).toEqual([]);
        await card.getByRole('button', { name: 'Approve edited' }).click();
        expect((await handle.result()).status).toBe('completed');
        expect(existsSync(path.join(harness.workspace, 'edited.txt'))).toBe(true);
        expect(existsSync(path.join(harness.workspace, 'asked.txt'))).toBe(false);
        expect((await handle.query(statusQuery)).decisions).toEqual([expect.objectContaining({ decision: 'approve', approver: 'alice', via: 'update' })]);
      });
    });
  });

  it('switches the mode and approves all of a run\'s parked calls from its page', async () => {
    const task = uniqueId('console-all');
    bed.fake.script(task, [reply(write('a.txt'), write('b.txt'), write('c.txt')), reply(write('d.txt')), complete('all written')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      await waitForApprovals(handle, 3);
      await withConsole(harness, browser, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        // The inbox offers it too, once per run with several calls.
        await page.locator('.approve-all-bar', { hasText: handle.workflowId }).getByRole('button', { name: 'Approve all 3' }).waitFor({ timeout: 5_000 });
        await page.goto(`${running.url}#/runs/${encodeURIComponent(handle.workflowId)}`);
        const panel = page.locator('.run-view .run-approvals');
        await panel.waitFor({ timeout: 5_000 });
        expect(await panel.locator('.current-mode').textContent()).toBe('default');
        await panel.getByLabel('Permission mode').selectOption('acceptEdits');
        await panel.getByRole('button', { name: 'Switch mode' }).click();
        await expect.poll(async () => (await handle.query(statusQuery)).mode).toBe('acceptEdits');
        // The page learns of the switch from the console's event stream: allow a loaded machine its delay.
        await expect.poll(() => panel.locator('.current-mode').textContent(), { timeout: 20_000 }).toBe('acceptEdits');
        await panel.getByRole('button', { name: 'Approve all 3' }).click();
        expect((await handle.result()).status).toBe('completed');
        // d.txt came in the next turn and ran unasked: acceptEdits.
        for (const file of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) expect(existsSync(path.join(harness.workspace, file))).toBe(true);
        const decided = (await handle.query(statusQuery)).decisions;
        // Alice's three, then d.txt's line: decided by the mode, no person (patch rule-decision-lines).
        expect(decided.map((d) => [d.callId, d.approver ?? d.decision])).toEqual([['toolu_0_0', 'alice'], ['toolu_0_1', 'alice'], ['toolu_0_2', 'alice'], ['toolu_1_0', 'policy_allow']]);
      });
    });
  });
});
