// The `compaction-by-token-budget` patch: a run whose history is from before it keeps the first
// release's rule (summarize all but a fixed number of recent turns); newer runs keep what fits a budget.
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../src/contract/messages';
import { ContextBudgetSchema } from '../../../src/contract/agent-definition';
import { Machine, runState } from './state-factory';

/** The task, then `turns` turns of one tool call whose result is `size` characters. */
function conversation(turns: number, size: number): ConversationMessage[] {
  const messages: ConversationMessage[] = [{ role: 'user', content: 'the task' }];
  for (let i = 0; i < turns; i += 1) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'read_file', input: { path: `f${i}` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'x'.repeat(size) }] });
  }
  return messages;
}

describe('compaction-by-token-budget', () => {
  // A 10,000-token window compacts past 6,000 tokens (~21,000 characters); 8 turns of 3,000 characters pass it.
  const machine = (compactionByBudget: boolean) => {
    const base = runState();
    const m = new Machine(
      runState({
        agent: { ...base.agent, context: ContextBudgetSchema.parse({ windowTokens: 10_000, targetShare: 0.6, keepRecentTurns: 6 }) },
        messages: conversation(8, 3_000),
        iteration: 8,
      }),
    );
    m.features = { ...m.features, compactionByBudget };
    return m;
  };

  it('keeps the fixed number of recent turns for a run from before it, and only what fits the budget after it', () => {
    // Before the patch: the last 6 turns stay, whatever their size; the summary covers the task and 2 turns.
    expect(machine(false).next()).toEqual({ kind: 'compact', plan: { split: 5, estimate: expect.any(Number) }, byBudget: false });
    // With it: the tail kept must fit half the target (~10,500 characters), so only 3 turns stay.
    const byBudget = machine(true).next();
    expect(byBudget).toMatchObject({ kind: 'compact', plan: { split: expect.any(Number) }, byBudget: true });
    expect((byBudget as { plan: { split: number } }).plan.split).toBe(11);
  });
});
