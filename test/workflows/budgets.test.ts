// Issue 34, must-have 1: a spend budget that parks the run. Real server and worker, the Messages API
// faked at the HTTP level. A run with maxUsd parks before the model call that would cross it, shows
// in `agentctl pending`, refuses a raise from someone who is not an approver, goes on after an
// approver's raise; a USD budget on a model with no price is refused at start; the budget wait times
// out as budget_exhausted.
import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { raiseBudgetUpdate, statusQuery } from '../../src/contract/agent-run-api';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { listPendingRuns } from '../../src/cli/commands/pending';
import { raiseBudget } from '../../src/client/raise-budget';
import { waitFor, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { costly, spender } from '../support/budget-agents';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { complete } from './approval-test-kit';

// spender (test/support/budget-agents.ts) runs claude-haiku-4-5 at $1 / $5 per million tokens: each
// costly() reply (10,000 in, 2,000 out) costs $0.02, and a next call's worst case (max_tokens 4,096 of
// output) $0.02048.
const unpriced: AgentDefinitionInput = { ...spender, name: 'unpriced', model: 'claude-unknown-9' };
const lead: AgentDefinitionInput = { ...spender, name: 'lead', description: 'Delegates.', tools: [], subAgents: ['spender'] };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

describe('spend budgets', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, spender, unpriced, lead] });
  const fake = bed.fake;

  it('parks before the call that would cross maxUsd, shows in pending, refuses a non-approver, goes on after an approver raises it', async () => {
    const task = uniqueId('budget');
    fake.script(task, [costly(), costly(), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const handle = await start({ agent: 'spender', task, budget: { maxUsd: 0.05 } });
      const status = await waitForPhase(handle, 'waiting_budget');
      // Two calls made ($0.04); a third could cost $0.02048 more, past $0.05.
      expect(fake.requestsFor(task)).toHaveLength(2);
      expect(status.pendingBudget).toMatchObject({ spentUsd: 0.04, maxUsd: 0.05, spentTokens: 24_000 });
      expect(status.events.some((e) => e.name === 'budgetExceeded')).toBe(true);
      const pending = await waitFor(async () => (await listPendingRuns(client, 100)).find((r) => r.workflowId === handle.workflowId), 'the run in pending');
      expect(pending.phase).toBe('waiting_budget');
      expect(pending.status?.pendingBudget).toMatchObject({ spentUsd: 0.04, maxUsd: 0.05 });

      expect(await refusal(handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxUsd: 1, approver: 'mallory' }] }))).toMatch(/"mallory" may not raise this run's budget \(approvers: ana\)/);
      expect(await refusal(handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxUsd: 0.01, approver: 'ana' }] }))).toMatch(/not above the current 0.05/);
      expect((await handle.query(statusQuery)).phase).toBe('waiting_budget');
      expect(fake.requestsFor(task)).toHaveLength(2);

      const raised = await raiseBudget(handle, { maxUsd: 1, approver: 'ana' });
      expect(raised.message).toContain('budget raised to $1');
      const result = await handle.result();
      expect(result.status).toBe('completed');
      expect(fake.requestsFor(task)).toHaveLength(3);
      const final = await handle.query(statusQuery);
      expect(final.budget).toEqual({ maxUsd: 1 });
      expect(final.events.some((e) => e.name === 'budgetRaised')).toBe(true);
    });
  });

  it('a sub-agent draws from its root\'s budget: its wait parks the tree at the root, is raised there, and the root parks again before it would cross its own', async () => {
    const task = uniqueId('budget-tree');
    const subTask = uniqueId('budget-child');
    // The root's first call ($0.0002) leaves $0.0598 for the child: two calls ($0.04), then a third's worst case crosses it.
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'spender', task: subTask })), complete('the child spent')]);
    fake.script(subTask, [costly(), costly(), complete('child done')]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const root = await start({ agent: 'lead', task, budget: { maxUsd: 0.06 } });
      const parked = await waitFor(async () => {
        const s = await root.query(statusQuery);
        return s.phase === 'waiting_budget' && s.pendingBudget?.workflowId !== root.workflowId ? s : undefined;
      }, 'the root waiting for its sub-agent\'s budget');
      const childId = parked.pendingBudget!.workflowId;
      expect(childId.startsWith(`${root.workflowId}/sub-`)).toBe(true);
      expect(parked.pendingBudget).toMatchObject({ spentUsd: 0.04, maxUsd: 0.0598 });
      expect(fake.requestsFor(subTask)).toHaveLength(2);
      const pending = await waitFor(async () => (await listPendingRuns(client, 100)).find((r) => r.workflowId === root.workflowId), 'the root in pending');
      expect(pending.status?.pendingBudget?.workflowId).toBe(childId);

      expect(await refusal(root.executeUpdate(raiseBudgetUpdate, { args: [{ maxUsd: 1, approver: 'mallory' }] }))).toMatch(/"mallory" may not raise/);
      expect((await raiseBudget(root, { maxUsd: 1, approver: 'ana' })).message).toBe(`raise forwarded to ${childId}, the sub-agent run that waits for it`);
      // The child finishes; its $0.0402 rolls up into the root, whose next call could now cross $0.06.
      const again = await waitFor(async () => {
        const s = await root.query(statusQuery);
        return s.phase === 'waiting_budget' && s.pendingBudget?.workflowId === root.workflowId ? s : undefined;
      }, 'the root parked by its own budget');
      expect(again.pendingBudget).toMatchObject({ spentUsd: 0.0404, maxUsd: 0.06 });
      expect(fake.requestsFor(subTask)).toHaveLength(3);
      expect((await raiseBudget(root, { maxUsd: 1, approver: 'ana' })).message).toBe('budget raised to $1');
      expect((await root.result()).status).toBe('completed');
    });
  });

  it('the agent\'s budget applies unless the run sets one; maxTokens parks too; the wait times out as budget_exhausted', async () => {
    const task = uniqueId('budget-timeout');
    fake.script(task, [costly(), complete()]);
    await withAgentWorker({ ...bed.harness(), agents: [...builtinAgents, { ...spender, budget: { maxTokens: 15_000 } }, unpriced] }, async ({ start }) => {
      const handle = await start({ agent: 'spender', task, approvalTimeoutSeconds: 2 });
      const result = await handle.result();
      expect(result.status).toBe('budget_exhausted');
      expect(fake.requestsFor(task)).toHaveLength(1);
      const status = await handle.query(statusQuery);
      expect(status.phase).toBe('budget_exhausted');
      expect(status.events.find((e) => e.name === 'budgetExceeded')?.data).toMatchObject({ spentTokens: 12_000, maxTokens: 15_000, limit: 'tokens' });
    });
    // The completion scripted for after a raise was never asked for.
    fake.reset();
  });

  it('refuses a USD budget on a model with no known price at start, naming AGENT_MODEL_PRICES_FILE', async () => {
    const task = uniqueId('budget-unpriced');
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'unpriced', task, budget: { maxUsd: 2 } });
      const error = await handle.result().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      const message = (error as WorkflowFailedError).cause?.message ?? '';
      expect(message).toContain('no price is known for model claude-unknown-9');
      expect(message).toContain('AGENT_MODEL_PRICES_FILE');
    });
    expect(fake.requestsFor(task)).toHaveLength(0);
  });

  it('refuses a bad budget at start with a clear error', async () => {
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const error = await start({ agent: 'spender', task: uniqueId('bad'), budget: { maxUsd: -1 } }).then(
        (h) => h.result(),
        (e: unknown) => e,
      ).catch((e: unknown) => e);
      expect(String((error as Error).message) + String((error as WorkflowFailedError).cause?.message ?? '')).toMatch(/maxUsd must be more than 0 USD/);
    });
  });
});
