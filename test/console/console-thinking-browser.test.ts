// The console's run view in Chromium (issue 22): the model's thinking streams in its own block, apart
// from its text, and the usage panel counts the thinking tokens once the run is done. Real dev server,
// real worker, the fake Messages API streaming a thinking block then text.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAgentTestbed } from '../support/agent-testbed';
import { withAgentWorker } from '../support/agent-run-harness';
import { reply, text, thinking, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { launchChromium, logIn } from './browser';
import { withBrowserConsole } from './browser-console';

const TOKEN = 'browser-test-start-token-thinking-0123';

describe('run view: thinking', () => {
  const bed = useAgentTestbed();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it("shows the model's thinking apart from its text while it streams, and the thinking tokens after", async () => {
    const task = uniqueId('console-thinking-browser');
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const done = toolCall('complete_task', { summary: 'done', status: 'success' });
    // Streamed slowly (20 characters each 150 ms), so the page sees the call in flight.
    bed.fake.script(task, [reply(thinking('I weigh the options before I write.'), text(words), done).chunked(20, 150).withUsage({ output_tokens_details: { thinking_tokens: 11 } })]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      await withBrowserConsole(harness, browser, TOKEN, async (running, page) => {
        await logIn(page, running.url, TOKEN);
        await page.getByText('Logged in as').waitFor();
        await page.goto(`${running.url}#/runs/${encodeURIComponent(handle.workflowId)}`);
        const thought = page.getByLabel('Model thinking');
        await thought.waitFor({ timeout: 20_000 });
        expect(await thought.textContent()).toContain('I weigh the options');
        // The text block never carries the thinking.
        expect(await page.locator('.live .live-text').textContent()).not.toContain('I weigh');
        expect((await handle.result()).status).toBe('completed');
        const tokens = page.locator('dt', { hasText: 'of which thinking' }).locator('xpath=following-sibling::dd[1]');
        await expect.poll(() => tokens.textContent(), { timeout: 20_000 }).toBe('11');
      });
    });
  });
});
