// How a `decideApprovals` batch is split between a run and the sub-agent runs below it, in the pure
// machine: what the run can check for a forwarded call is checked before anything is applied.
import { describe, expect, it } from 'vitest';
import { planBatch } from '../../../src/core/machine/batch-rules';
import { pendingCalls } from '../../../src/core/machine/decision-rules';
import { call, Machine, runState } from './state-factory';

const env = { now: Date.parse('2026-01-01T00:00:00Z'), namespace: 'default', firstRunId: 'r1', runId: 'r1', toolWide: false };
const waitingBelow = (approvers?: string[]) => ({
  approvals: [{ callId: 'c1', tool: 'write_file', input: { path: 'c' }, requestedAt: '2026-01-01T00:00:00Z', iteration: 1, reason: 'write', workflowId: 'run-1/sub-d/sub-e', ...(approvers ? { approvers } : {}) }],
  questions: [],
});

describe('planBatch', () => {
  it('applies the run\'s own calls and forwards a call waiting below to the run that waits for it', () => {
    const m = new Machine(runState({ childWaiting: { 'run-1/sub-d': waitingBelow() } })).reply(call('t1', 'write_file', { path: 'a', content: 'x' }));
    const plan = planBatch(m.state, [{ decision: { callId: 'c1', decision: 'approve' } }, { decision: { callId: 't1', decision: 'reject' } }], env);
    expect(plan).toEqual({
      local: [{ decision: { callId: 't1', decision: 'reject' } }],
      forwarded: [{ decision: { callId: 'c1', decision: 'approve' }, workflowId: 'run-1/sub-d/sub-e', tool: 'write_file' }],
    });
    // Planning changes nothing.
    expect(pendingCalls(m.state).map((c) => c.id)).toEqual(['t1']);
  });

  it('refuses the whole batch when the approver is not one the waiting run accepts, or a call waits nowhere', () => {
    const m = new Machine(runState({ childWaiting: { 'run-1/sub-d': waitingBelow(['ana']) } })).reply(call('t1', 'write_file', { path: 'a', content: 'x' }));
    const own = { decision: { callId: 't1', decision: 'approve' as const, approver: 'bob' } };
    expect(planBatch(m.state, [own, { decision: { callId: 'c1', decision: 'approve', approver: 'bob' } }], env)).toEqual({
      refusal: 'decision 2 of 2 (approve c1) is refused: "bob" may not decide calls of run-1/sub-d/sub-e (approvers: ana); the call stays parked; nothing was applied',
    });
    expect(planBatch(m.state, [own, { decision: { callId: 'c9', decision: 'approve' } }], env)).toEqual({
      refusal: 'decision 2 of 2 (approve c9) is refused: no pending approval with callId c9; decision ignored; nothing was applied',
    });
    expect(planBatch(m.state, [own, { decision: { callId: 'c1', decision: 'approve', approver: 'ana' } }], env)).toMatchObject({ forwarded: [{ workflowId: 'run-1/sub-d/sub-e' }] });
  });
});
