// The decisions an audit line may record, apart from the record itself: the workflow checks them
// too, and audit-record.ts imports node:crypto, which the workflow bundle may not.
import { z } from 'zod';

/**
 * Every decision an audit line may record. A zod enum, and the record's type uses it, so a writer
 * (the run machine, through the run driver) that invents a new kind gets a type error until it is
 * added here. Readers refuse a line whose decision is not listed: a new kind is a change of this list.
 */
export const AuditDecisionSchema = z.enum([
  'approve',
  'reject',
  'approve_always',
  'reject_always',
  'timed_out',
  'policy_allow',
  'policy_reject',
  'handler_allow',
  'handler_reject',
  'guardrail_reject',
  'outcome_unknown',
]);
export type AuditDecision = z.infer<typeof AuditDecisionSchema>;
export const AUDIT_DECISIONS = AuditDecisionSchema.options;
