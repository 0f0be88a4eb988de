import { z } from 'zod';
import { AuditDecisionSchema } from './audit-decision';

/**
 * The one record of a decision on a tool call: who or what let it run or refused it, and why. The
 * run keeps these in its checkpoint and status (`decisions`), emits each as `approvalDecided`, writes
 * it to the audit log, and hands the deciding one to the tool activity (`CallApprovalSchema`). Its
 * `decision` is the audit enum, so the machine cannot record a kind the audit log would refuse.
 */

/** How a decision arrived: a person's signal or update, the policy, the agent's approval handler, a guardrail, or the approval timeout. */
export const DecisionViaSchema = z.enum(['signal', 'update', 'policy', 'handler', 'guardrail', 'timeout']);
export type DecisionVia = z.infer<typeof DecisionViaSchema>;

export const DecisionSchema = z.object({
  callId: z.string(),
  tool: z.string(),
  decision: AuditDecisionSchema,
  reason: z.string().optional(),
  approver: z.string().optional(),
  /** True when the approver's signature was checked against the worker's approver registry. */
  verified: z.boolean().optional(),
  decidedAt: z.string(),
  via: DecisionViaSchema,
});
export type Decision = z.infer<typeof DecisionSchema>;

/**
 * Who let a call run, as the tool activity receives it for the audit line written when the call ends:
 * the deciding record's fields, and who sent the follow-up the call came from.
 */
export const CallApprovalSchema = DecisionSchema.pick({ decision: true, approver: true, verified: true, via: true }).extend({
  requestedBy: z.string().optional(),
});
export type CallApproval = z.infer<typeof CallApprovalSchema>;
