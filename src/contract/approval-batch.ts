import { z } from 'zod';
import { ApprovalDecisionSchema } from './approval-decision';

/**
 * The `decideApprovals` update's payload: decisions on several parked calls, applied all or none.
 * Calls it does not name stay parked.
 */
export const ApprovalBatchSchema = z.object({
  decisions: z
    .array(ApprovalDecisionSchema)
    .min(1, 'decisions must name at least one parked call')
    .max(100)
    .refine((list) => new Set(list.map((d) => d.callId)).size === list.length, 'each call may be decided once per batch'),
});
export type ApprovalBatch = z.infer<typeof ApprovalBatchSchema>;
