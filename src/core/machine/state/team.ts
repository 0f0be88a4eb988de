import { z } from 'zod';
import { ChildWaitingSchema } from '../../../contract/run-records';

/**
 * The team slice: where the run sits among sub-agents. `lineage` is fixed at start by
 * run-state-init.ts; `childWaiting` is written by on-team as sub-agents park and resume.
 */

/** Where this run sits in a tree of sub-agents (depth 0: a run a person started). */
export const LineageSchema = z.object({ depth: z.number().int().min(0), parentWorkflowId: z.string().optional(), rootWorkflowId: z.string().optional() });

export const TeamSliceSchema = z.object({
  lineage: LineageSchema.default({ depth: 0 }),
  /** What each running sub-agent waits for, by its workflow id. */
  childWaiting: z.record(z.string(), ChildWaitingSchema).default({}),
});
export type TeamSlice = z.infer<typeof TeamSliceSchema>;
