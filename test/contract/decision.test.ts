// One Decision record: the checkpoint's and status's `decisions`, the tool activity's `approval`, and
// the audit line all take their decision from the audit enum, so none can carry a kind the others refuse.
import { describe, expect, it } from 'vitest';
import { AUDIT_DECISIONS } from '../../src/contract/audit-decision';
import { CallApprovalSchema, DecisionSchema } from '../../src/contract/decision';
import { DecisionRecordSchema } from '../../src/contract/run-records';
import { RunToolInputSchema } from '../../src/runtime/activities/run-tool';

const record = { callId: 'c', tool: 'shell', decision: 'approve', decidedAt: '2026-01-01T00:00:00.000Z', via: 'update' };

describe('the Decision record', () => {
  it('is the run records\' decision', () => {
    expect(DecisionRecordSchema).toBe(DecisionSchema);
  });

  it('takes every audit decision, and refuses one that is not listed or an unknown channel', () => {
    for (const decision of AUDIT_DECISIONS) expect(DecisionSchema.parse({ ...record, decision }).decision).toBe(decision);
    expect(DecisionSchema.safeParse({ ...record, decision: 'maybe' }).success).toBe(false);
    expect(DecisionSchema.safeParse({ ...record, via: 'email' }).success).toBe(false);
  });

  it('is what the tool activity receives as `approval`, checked before the tool runs', () => {
    expect(CallApprovalSchema.parse({ decision: 'policy_allow', via: 'policy', requestedBy: 'ana' })).toEqual({ decision: 'policy_allow', via: 'policy', requestedBy: 'ana' });
    const input = { agent: 'general', tool: 'shell', callId: 'c', input: {} };
    expect(RunToolInputSchema.safeParse({ ...input, approval: { decision: 'handler_allow', via: 'handler' } }).success).toBe(true);
    expect(RunToolInputSchema.safeParse({ ...input, approval: { decision: 'approved', via: 'handler' } }).success).toBe(false);
  });
});
