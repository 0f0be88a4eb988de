// The console's schedule list in Debian's Chromium, against the dev server and a worker whose model
// is the fake: the next firing as the schedule's clock shows it, and the Pause, Unpause and Run now
// buttons, down to the run a button started and the policy's answer while that run waits.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSchedule, startSchedule } from '../../src/client/schedules';
import { localTime } from '../../src/client/schedules-render';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { firingIdPattern, removeSchedule, waitForPoller } from '../support/schedules';
import { launchChromium, logIn } from './browser';
import { withBrowserConsole } from './browser-console';

const TOKEN = 'schedules-browser-start-token-0123456789';

describe('console schedules in a browser', () => {
  const bed = useAgentTestbed();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('lists a schedule with its next firing on its own clock; Pause, Unpause and Run now work, and Run now while its run waits says it was skipped', async () => {
    const name = uniqueId('browser-sched');
    const task = uniqueId('browser-scheduled');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'b.md', content: 'b' })), reply(toolCall('complete_task', { summary: 'ok', status: 'success' }))]);
    await withAgentWorker(bed.harness(), async (h) => {
      try {
        await waitForPoller(h.client, h.taskQueue);
        const created = await startSchedule(h.client, { name, cron: '30 7 * * 1-5', timezone: 'America/New_York', input: { agent: 'general', task }, taskQueue: h.taskQueue });
        await withBrowserConsole(h, browser, TOKEN, async (running, page) => {
          await logIn(page, running.url, TOKEN);
          const row = page.locator(`tr.schedule[data-schedule="${name}"]`);
          await row.waitFor({ timeout: 15_000 });
          const next = row.locator('.next-firing');
          expect(await next.textContent()).toBe(localTime(created.nextFirings[0]!, 'America/New_York'));
          expect(await next.textContent()).toMatch(/^\d{4}-\d\d-\d\d 07:30 America\/New_York$/);
          expect(await row.locator('code').textContent()).toBe('30 7 * * 1-5');

          await row.getByRole('button', { name: 'Pause' }).click();
          await page.locator('.notices .notice.ok', { hasText: `Paused ${name}` }).waitFor({ timeout: 5_000 });
          await expect.poll(() => row.locator('.state').textContent()).toContain('paused');
          expect(await next.textContent()).toBe('paused');
          expect(await row.locator('.state .hint').first().textContent()).toBe('Paused by alice from the console');
          expect((await describeSchedule(h.client, name)).paused).toBe(true);

          await row.getByRole('button', { name: 'Unpause' }).click();
          await expect.poll(() => next.textContent(), { timeout: 5_000 }).toMatch(/07:30 America\/New_York$/);
          expect((await describeSchedule(h.client, name)).paused).toBe(false);

          await row.getByRole('button', { name: 'Run now' }).click();
          const started = page.locator('.notices .notice.ok', { hasText: 'Started schedule-' });
          await started.waitFor({ timeout: 15_000 });
          const workflowId = /Started (\S+)\.$/.exec((await started.textContent())!)![1]!;
          expect(workflowId).toMatch(firingIdPattern(name));
          const lastRun = row.getByRole('link', { name: workflowId });
          await lastRun.waitFor({ timeout: 10_000 });
          await waitForApprovals(h.client.workflow.getHandle(workflowId));

          await row.getByRole('button', { name: 'Run now' }).click();
          await page.locator('.notices .notice.error', { hasText: `Skipped: ${workflowId} is still open and the schedule's overlap policy is skip.` }).waitFor({ timeout: 15_000 });
          expect(await describeSchedule(h.client, name)).toMatchObject({ firingsTaken: 1, firingsSkipped: 1, openRuns: [workflowId] });

          // The last run links to the run's own view.
          await lastRun.click();
          await page.waitForURL(new RegExp(`#/runs/${encodeURIComponent(workflowId)}$`));
        });
      } finally {
        await removeSchedule(h.client, name);
      }
    });
  });
});
