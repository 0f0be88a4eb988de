import { z } from 'zod';

/** The one JSON object the `approval` signal and the `decideApproval` update carry. */
export const ApprovalDecisionSchema = z.object({
  callId: z.string().min(1),
  decision: z.enum(['approve', 'reject', 'approve_always', 'reject_always']),
  reason: z.string().max(2_000).optional(),
  approver: z.string().min(1).max(200).optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** The `userReply` signal's payload. */
export const UserReplySchema = z.object({ text: z.string().min(1).max(100_000) });
export type UserReply = z.infer<typeof UserReplySchema>;

/** What an update caller learns. */
export interface DecisionOutcome {
  applied: boolean;
  message: string;
}
