// Issue 34 in the console, in Debian's Chromium against the real dev server, a real worker and the fake
// model: a run parked by its budget shows a card with what it spent against its limits; its approver
// raises it there and the run completes; on a run whose approver is someone else, the same control
// shows the run's refusal and the run keeps waiting.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusQuery } from '../../src/contract/agent-run-api';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { costly, spender } from '../support/budget-agents';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { launchChromium, logIn } from './browser';
import { withBrowserConsole } from './browser-console';

const TOKEN = 'browser-test-start-token-budget-0123';
const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const { approvers: _agentApprovers, ...open } = { ...spender, name: 'spender-open' };

describe('console: the budget card', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, open] });
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('shows spent against the limits, raises as the logged-in approver and the run completes; a non-approver sees the run\'s refusal', async () => {
    const mine = uniqueId('console-budget');
    const theirs = uniqueId('console-budget-bob');
    bed.fake.script(mine, [costly(), costly(), complete()]);
    bed.fake.script(theirs, [costly(), costly()]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'spender-open', task: mine, approvers: ['alice'], budget: { maxUsd: 0.05, maxTokens: 100_000 } });
      const other = await harness.start({ agent: 'spender-open', task: theirs, approvers: ['bob'], budget: { maxUsd: 0.05 } });
      await waitForPhase(handle, 'waiting_budget');
      await waitForPhase(other, 'waiting_budget');
      try {
        await withBrowserConsole(harness, browser, TOKEN, async (running, page) => {
          await logIn(page, running.url, TOKEN);
          const card = page.locator('.inbox .card.budget', { hasText: handle.workflowId });
          await card.waitFor({ timeout: 20_000 });
          expect(await card.locator('.spend').textContent()).toBe('Spent $0.04 of $0.05 · 24000 of 100000 tokens');
          expect(await card.locator('.read-only-note').count()).toBe(0);

          const theirCard = page.locator('.inbox .card.budget', { hasText: other.workflowId });
          await theirCard.waitFor({ timeout: 20_000 });
          expect(await theirCard.locator('.read-only-note').textContent()).toContain('Only bob may raise this run\'s budget; you are alice.');
          await theirCard.getByLabel('New max USD').fill('1');
          await theirCard.getByRole('button', { name: 'Raise' }).click();
          await expect.poll(() => theirCard.locator('.result').textContent(), { timeout: 20_000 }).toBe('"alice" may not raise this run\'s budget (approvers: bob)');
          expect((await other.query(statusQuery)).phase).toBe('waiting_budget');

          await card.getByLabel('New max USD').fill('1');
          await card.getByRole('button', { name: 'Raise' }).click();
          expect((await handle.result()).status).toBe('completed');
          expect((await handle.query(statusQuery)).budget).toEqual({ maxUsd: 1, maxTokens: 100_000 });
          // The card leaves the inbox once the run goes on.
          await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(0);
        });
      } finally {
        await other.cancel();
      }
    });
  }, 180_000);
});
