import { z } from 'zod';
import { ApprovalDecisionSchema, ArgumentsHashSchema } from './approval-decision';

/**
 * One call as a person was shown it: which run parked it, its id there, and the hash of the arguments
 * displayed. "Approve all" sends the list of these it showed, and decides exactly those.
 */
export const ShownCallSchema = z.object({ workflowId: z.string().min(1), callId: z.string().min(1), argumentsHash: ArgumentsHashSchema });
export type ShownCall = z.infer<typeof ShownCallSchema>;

/**
 * The `decideApprovals` update's payload: decisions on several parked calls, applied all or none.
 * Calls it does not name stay parked. Each decision names its call by `callId` and, in a tree of
 * runs, `workflowId`; with `argumentsHash` it decides the call only as it was shown (see ShownCall).
 */
export const ApprovalBatchSchema = z.object({
  decisions: z
    .array(ApprovalDecisionSchema)
    .min(1, 'decisions must name at least one parked call')
    .max(100)
    .refine((list) => new Set(list.map((d) => JSON.stringify([d.workflowId ?? '', d.callId]))).size === list.length, 'each call may be decided once per batch'),
});
export type ApprovalBatch = z.infer<typeof ApprovalBatchSchema>;
