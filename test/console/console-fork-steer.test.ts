// The console's run view in Chromium (issue 23): steering a working run that is not a thread, and
// "Fork from here" on the run's timeline. Real dev server, real worker, the fake model.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningConsole } from '../../src/console/start-console';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitForApprovals, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { launchChromium, logIn } from './browser';
import { withBrowserConsole } from './browser-console';

const TOKEN = 'browser-test-start-token-0123456789';
const complete = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

/** A console for this worker's task queue, logged in, showing run `workflowId`. */
async function onRunView<T>(harness: RunHarness, browser: Browser, workflowId: string, body: (page: Page, console: RunningConsole) => Promise<T>): Promise<T> {
  return withBrowserConsole(harness, browser, TOKEN, async (running, page) => {
    await logIn(page, running.url, TOKEN);
    await page.getByText('Logged in as').waitFor();
    await page.goto(`${running.url}#/runs/${encodeURIComponent(workflowId)}`);
    return body(page, running);
  });
}

describe('run view: steer and fork', () => {
  const bed = useAgentTestbed();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('sends a steering message to a parked run that is not a thread; the model reads it at its next request', async () => {
    const task = uniqueId('console-steer');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'a.md', content: 'x' })), complete('steered')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      await waitForApprovals(handle);
      await onRunView(harness, browser, handle.workflowId, async (page) => {
        await page.getByLabel('Steering message').fill('Use tabs, not spaces.');
        await page.getByRole('button', { name: 'Send' }).click();
        await expect.poll(() => page.getByText(/message queued/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
        expect((await handle.query(statusQuery)).phase).toBe('waiting_approval');
      });
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
    });
    expect(JSON.stringify(bed.fake.requestsFor(task)[1]?.body.messages.at(-1))).toContain('Use tabs, not spaces.');
  });

  it('"Fork from here" on the timeline starts a new run from that iteration with the new instruction, and shows it', async () => {
    const task = uniqueId('console-fork');
    bed.fake.script(task, [reply(toolCall('list_files', { path: '.' })), complete('original'), complete('forked')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const original = await harness.start({ agent: 'general', task });
      await original.result();
      await onRunView(harness, browser, original.workflowId, async (page) => {
        const row = page.locator('.tool-calls tbody tr', { hasText: 'list_files' });
        await row.getByRole('button', { name: 'Fork from here' }).click({ timeout: 15_000 });
        await page.getByLabel('New instruction for a fork after iteration 1').fill('Look in docs/ instead.');
        await page.getByRole('button', { name: 'Start fork' }).click();
        await page.waitForURL(new RegExp(`#/runs/${original.workflowId}-fork1-`), { timeout: 60_000 });
        await expect.poll(() => page.getByText(/not rolled back/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
        const forkId = decodeURIComponent(page.url().split('#/runs/')[1]!);
        expect((await harness.client.workflow.getHandle(forkId).result()).status).toBe('completed');
        await page.locator('.completion .summary').waitFor({ timeout: 15_000 });
      });
    });
    const requests = bed.fake.requestsFor(task);
    expect(requests).toHaveLength(3);
    expect(JSON.stringify(requests[2]?.body.messages.at(-1))).toContain('Look in docs/ instead.');
  });
});
