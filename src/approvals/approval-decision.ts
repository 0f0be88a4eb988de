import { z } from 'zod';

/**
 * The one JSON object the `approval` signal and the `decideApproval` update carry. `callId`,
 * `decision`, `reason`, `approver` and `signature` are a contract with plain Temporal clients.
 */
export const ApprovalDecisionSchema = z.object({
  callId: z.string().min(1),
  decision: z.enum(['approve', 'reject', 'approve_always', 'reject_always']),
  reason: z.string().max(2_000).optional(),
  approver: z.string().min(1).max(200).optional(),
  /**
   * Base64 Ed25519 signature by the approver's key over
   * `${workflowId}\n${callId}\n${decision}\n${approver}` (plus `\n${scope text}` for a scoped choice,
   * see decisionScopeText). Required when the worker has an approver registry.
   */
  signature: z.string().min(1).max(200).optional(),
  /** For approve_always / reject_always: `tool` remembers the choice for every call of the tool. */
  scope: z.enum(['tool']).optional(),
  /** For approve_always / reject_always: remember this command prefix (shell) or path prefix instead. */
  prefix: z.string().min(1).max(500).optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** The extra signed line of a scoped choice, or undefined when the decision has no scope. */
export function decisionScopeText(decision: Pick<ApprovalDecision, 'scope' | 'prefix'>): string | undefined {
  if (decision.scope === 'tool') return 'tool';
  if (decision.prefix !== undefined) return `prefix:${decision.prefix}`;
  return undefined;
}

/** The `userReply` signal's payload. */
export const UserReplySchema = z.object({
  text: z.string().min(1).max(100_000),
  /** Which question, when several runs of a tree wait for answers (optional otherwise). */
  callId: z.string().min(1).optional(),
});
export type UserReply = z.infer<typeof UserReplySchema>;

/** What an update caller learns. */
export interface DecisionOutcome {
  applied: boolean;
  message: string;
}
