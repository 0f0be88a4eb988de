import { describe, expect, it } from 'vitest';
import { ApprovalDecisionSchema } from '../../src/contract/approval-decision';

describe('ApprovalDecisionSchema', () => {
  it('limits reason to 2,000 characters and approver to 200', () => {
    const decision = (fields: Record<string, unknown>) => ApprovalDecisionSchema.safeParse({ callId: 'toolu_1', decision: 'reject', ...fields });
    expect(decision({ reason: 'r'.repeat(2_000), approver: 'a'.repeat(200) }).success).toBe(true);
    expect(decision({ reason: 'r'.repeat(2_001) }).success).toBe(false);
    expect(decision({ approver: 'a'.repeat(201) }).success).toBe(false);
  });
});
