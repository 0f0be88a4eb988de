import { z } from 'zod';

/** When a signature stops being accepted (ISO 8601, with an offset); it is part of what is signed. */
const ExpiresAtSchema = z.iso.datetime({ offset: true });

/** Base64 Ed25519 signature by the sender's key over the v2 canonical message (signatures/signed-message.ts). */
const SignatureSchema = z.string().min(1).max(200);

/** sha-256 (lower-case hex) of the canonical JSON of a call's arguments (signatures/signed-message.ts `argumentsHash`). */
export const ArgumentsHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'argumentsHash must be the sha-256 of the canonical arguments, 64 lower-case hex digits');

/**
 * The one JSON object the `approval` signal and the `decideApproval` update carry. `callId`,
 * `workflowId`, `argumentsHash`, `decision`, `reason`, `approver`, `signature` and `expiresAt` are a
 * contract with plain Temporal clients.
 */
export const ApprovalDecisionSchema = z.object({
  callId: z.string().min(1),
  /**
   * The run that parked the call (this run, or a sub-agent's run below it), as the status reports it
   * in `pendingApprovals[].workflowId`. In a tree of runs two sub-agents may park the same call id:
   * this picks the one. Absent: this run's own call, else the only run below that waits for `callId`.
   */
  workflowId: z.string().min(1).max(1_000).optional(),
  /**
   * sha-256 of the canonical JSON of the call's arguments as the person saw them. When present and the
   * call's arguments hash differs now (an edit parked it again), the decision is refused. Required
   * when the worker has an approver registry.
   */
  argumentsHash: ArgumentsHashSchema.optional(),
  decision: z.enum(['approve', 'reject', 'approve_always', 'reject_always']),
  reason: z.string().max(2_000).optional(),
  approver: z.string().min(1).max(200).optional(),
  /**
   * Base64 Ed25519 signature by the approver's key over the canonical JSON of the v2 decision
   * message (run, call, arguments hash, decision, approver, scope, prefix, reason, expiresAt; see
   * signatures/signed-message.ts). Required when the worker has an approver registry.
   */
  signature: SignatureSchema.optional(),
  /** Required with a signature: the signature is refused after this time. */
  expiresAt: ExpiresAtSchema.optional(),
  /** For approve_always / reject_always: `tool` remembers the choice for every call of the tool. */
  scope: z.enum(['tool']).optional(),
  /** For approve_always / reject_always: remember this command prefix (shell) or path prefix instead. */
  prefix: z.string().min(1).max(500).optional(),
  /**
   * For approve / approve_always: the whole new input of the call, run instead of what the model
   * asked for. Checked against the tool's schema and judged by the run's rules again; a signature
   * then covers it too (`editedArgumentsHash`).
   */
  arguments: z.record(z.string(), z.unknown()).optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** The `userReply` signal's payload. */
export const UserReplySchema = z.object({
  text: z.string().min(1).max(100_000),
  /** Which question, when several runs of a tree wait for answers (optional otherwise). */
  callId: z.string().min(1).optional(),
  /** Who answers. In a run with approvers it must be one of them (and sign, with a registry). */
  sender: z.string().min(1).max(200).optional(),
  signature: SignatureSchema.optional(),
  expiresAt: ExpiresAtSchema.optional(),
});
export type UserReply = z.infer<typeof UserReplySchema>;

/** The `userMessage` signal's and `sendMessage` update's payload: a follow-up for a thread. */
export const FollowUpSchema = z.object({
  text: z.string().min(1).max(100_000),
  /** Who sends it. In a run with approvers it must be one of them (and sign, with a registry). */
  sender: z.string().min(1).max(200).optional(),
  signature: SignatureSchema.optional(),
  expiresAt: ExpiresAtSchema.optional(),
});
export type FollowUp = z.infer<typeof FollowUpSchema>;

/** What an update caller learns. */
export interface DecisionOutcome {
  applied: boolean;
  message: string;
}
