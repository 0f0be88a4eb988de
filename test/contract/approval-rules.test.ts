// The policy's "ask a person" is `ask`; `approve`, its old spelling, stays an alias in every place a
// client or a config file can write it, and the policy then asks, as it did.
import { describe, expect, it } from 'vitest';
import { ScopeActionSchema, ToolApprovalSchema } from '../../src/contract/approval-rules';
import { AgentRunInputSchema } from '../../src/contract/run-input';
import { evaluatePolicy } from '../../src/core/approvals/approval-policy';

describe('the scope action', () => {
  it('is allow, ask or reject, with "approve" read as "ask"', () => {
    expect(ScopeActionSchema.parse('ask')).toBe('ask');
    expect(ScopeActionSchema.parse('approve')).toBe('ask');
    expect(ScopeActionSchema.parse('allow')).toBe('allow');
    expect(ScopeActionSchema.parse('reject')).toBe('reject');
  });

  it('refuses another word, naming the three and the alias', () => {
    const result = ScopeActionSchema.safeParse('yes');
    expect(result.error?.issues.map((i) => i.message)).toEqual(['must be "allow", "ask" (a person decides; "approve" is an alias) or "reject"']);
    // Only the exact old word is an alias: nothing else is rewritten before the check.
    expect(ScopeActionSchema.safeParse('Approve').success).toBe(false);
    expect(ScopeActionSchema.safeParse('toString').success).toBe(false);
  });

  it('reads a run input that says "approve" as "ask", and the policy then asks a person', () => {
    const input = AgentRunInputSchema.parse({ agent: 'general', task: 't', toolApproval: { scopes: { read: 'approve', write: 'allow' } } });
    expect(input.toolApproval?.scopes).toEqual({ read: 'ask', write: 'allow' });
    expect(evaluatePolicy({ tool: 'read_file', scope: 'read', input: {}, run: input.toolApproval })).toEqual({ action: 'ask', reason: 'read tools: approve' });
    expect(evaluatePolicy({ tool: 'write_file', scope: 'write', input: {}, run: input.toolApproval }).action).toBe('allow');
  });

  it('keeps the other rule lists as they are', () => {
    const approval = ToolApprovalSchema.parse({ requiresApproval: ['approve'], scopes: { execute: 'approve' } });
    expect(approval).toEqual({ requiresApproval: ['approve'], scopes: { execute: 'ask' } });
  });
});
