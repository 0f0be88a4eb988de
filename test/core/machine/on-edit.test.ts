// An approval with edited arguments, in the pure machine (issue 23, item 1).
import { describe, expect, it } from 'vitest';
import type { ShellAnalysis } from '../../../src/contract/shell-analysis';
import { batchRefusal } from '../../../src/core/machine/batch-rules';
import { pendingCalls } from '../../../src/core/machine/decision-rules';
import { describeEdit } from '../../../src/core/machine/on-edit';
import { call, Machine } from './state-factory';

const notUnderstood: ShellAnalysis = { understood: false, problems: ['it uses eval'], commands: [], writes: [] };
const env = { now: Date.parse('2026-01-01T00:00:00Z'), namespace: 'default', firstRunId: 'r1', runId: 'r1', toolWide: false };

describe('edited approvals', () => {
  it('describes what an edit changed, argument by argument', () => {
    expect(describeEdit({ command: 'rm -rf build/' }, { command: 'rm -rf build/tmp' })).toBe('command: "rm -rf build/" → "rm -rf build/tmp"');
    expect(describeEdit({ path: 'a', content: 'x' }, { path: 'a' })).toBe('content: "x" → (absent)');
  });

  it('parks an edited command the analysis does not understand again, for a decision on the edit', () => {
    const m = new Machine().reply(call('t1', 'shell', { command: 'ls' }));
    m.send({ type: 'decision', decision: { callId: 't1', decision: 'approve', approver: 'ana', arguments: { command: 'eval "$X"' } }, via: 'update', verified: false, analysis: notUnderstood });
    const [parked] = pendingCalls(m.state);
    expect(parked).toMatchObject({ id: 't1', input: { command: 'eval "$X"' }, edited: { by: 'ana', original: { command: 'ls' } } });
    expect(parked?.stage).toMatchObject({ kind: 'person', reason: expect.stringContaining('not fully understood (it uses eval)') });
    // Deciding on the edit lets it run; the record still says what the model asked for.
    m.send({ type: 'decision', decision: { callId: 't1', decision: 'approve', approver: 'ana' }, via: 'update', verified: false });
    expect(pendingCalls(m.state)).toEqual([]);
    const decided = m.events.filter((e) => e.name === 'approvalDecided').at(-1);
    expect(decided?.data).toMatchObject({ decision: 'approve', edited: { original: { command: 'ls' }, arguments: { command: 'eval "$X"' } } });
  });

  it('refuses a batch as a whole when a decision is made moot by an earlier one, and leaves the state as it was', () => {
    const m = new Machine().reply(call('t1', 'write_file', { path: 'a', content: 'x' }), call('t2', 'write_file', { path: 'b', content: 'y' }));
    const before = m.state;
    const refusal = batchRefusal(m.state, [{ decision: { callId: 't1', decision: 'approve_always', scope: 'tool' } }, { decision: { callId: 't2', decision: 'reject' } }], env);
    expect(refusal).toBe('decision 2 of 2 (reject t2) is refused: call t2 was already decided; decision ignored; nothing was applied');
    expect(m.state).toBe(before);
    expect(pendingCalls(m.state).map((c) => c.id)).toEqual(['t1', 't2']);
  });
});
