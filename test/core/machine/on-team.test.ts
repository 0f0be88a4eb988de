// The limits on delegate_task, as the run state machine applies them before any child run starts.
import { describe, expect, it } from 'vitest';
import { call, Machine, runState } from './state-factory';

function team(delegation: { maxDepth: number; maxPerTurn: number }, depth = 0) {
  const base = runState();
  return new Machine(
    runState({
      agent: { ...base.agent, subAgents: ['reader'], delegation },
      lineage: depth > 0 ? { depth, rootWorkflowId: 'root-1', parentWorkflowId: 'parent-1' } : { depth: 0, rootWorkflowId: 'run-1' },
    }),
  );
}

const delegate = (id: string, agent = 'reader') => call(id, 'delegate_task', { agent, task: `look at ${id}` });
/** A call's result, in the open turn or, once every call of the turn has one, in the conversation. */
function resultOf(m: Machine, id: string): unknown {
  const open = m.call(id)?.result;
  if (open) return open;
  for (const message of m.state.messages) {
    if (typeof message.content === 'string') continue;
    const block = message.content.find((b) => b.type === 'tool_result' && b.tool_use_id === id);
    if (block) return block;
  }
  return undefined;
}

describe('delegate_task limits', () => {
  it('gives a delegation past maxPerTurn an error result, and starts the ones within it', () => {
    const m = team({ maxDepth: 2, maxPerTurn: 2 }).reply(delegate('d1'), delegate('d2'), delegate('d3'));
    expect(resultOf(m, 'd1')).toBeUndefined();
    expect(resultOf(m, 'd2')).toBeUndefined();
    expect(resultOf(m, 'd3')).toMatchObject({ is_error: true, content: expect.stringContaining('At most 2 delegations per turn') });
    const next = m.next();
    expect(next.kind).toBe('run_tools');
    expect(next.kind === 'run_tools' ? next.calls.map((c) => c.id) : []).toEqual(['d1', 'd2']);
  });

  it('gives a delegation past maxDepth an error result that says the limit', () => {
    const m = team({ maxDepth: 1, maxPerTurn: 4 }, 1).reply(delegate('deep'));
    expect(resultOf(m, 'deep')).toMatchObject({ is_error: true, content: expect.stringContaining('Sub-agents nest at most 1 level(s) deep') });
    expect(resultOf(team({ maxDepth: 2, maxPerTurn: 4 }, 1).reply(delegate('ok')), 'ok')).toBeUndefined();
  });

  it('refuses a delegate_task naming an agent that is not a sub-agent of the run, naming the allowed ones', () => {
    const m = team({ maxDepth: 2, maxPerTurn: 4 }).reply(delegate('w', 'writer'));
    expect(resultOf(m, 'w')).toMatchObject({ is_error: true, content: '"writer" is not a sub-agent of this run. Sub-agents: reader.' });
  });
});
