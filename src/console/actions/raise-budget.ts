// A budget raise from the inbox's budget card (issue 34), made as the logged-in person through the same
// client helper as `agentctl budget` (signed with the person's key when they have one). It goes to the
// top-level run, which forwards it to a sub-agent's run that waits; the run decides who may raise it.
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { queryStatus } from '../../client/approval-helpers';
import { raiseBudget } from '../../client/raise-budget';
import { RaiseBudgetSchema } from '../../contract/budget';
import { settle, type ActionOutcome } from './decide';

export const RaiseRequestSchema = z
  .object({
    /** The top-level run (the card's `rootWorkflowId`). */
    workflowId: z.string().min(1),
    maxUsd: RaiseBudgetSchema.shape.maxUsd,
    maxTokens: RaiseBudgetSchema.shape.maxTokens,
  })
  .strict()
  .refine((r) => r.maxUsd !== undefined || r.maxTokens !== undefined, 'a raise names maxUsd, maxTokens or both: the new, higher limits');
export type RaiseRequest = z.infer<typeof RaiseRequestSchema>;

export function raiseAs(client: Client, user: string, request: RaiseRequest): Promise<ActionOutcome> {
  const handle = client.workflow.getHandle(request.workflowId);
  const limits = { ...(request.maxUsd !== undefined ? { maxUsd: request.maxUsd } : {}), ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}) };
  return settle(
    () => raiseBudget(handle, { ...limits, approver: user }),
    async () => {
      const status = await queryStatus(handle, 3_000).catch(() => undefined);
      // Someone raised it first (or the wait timed out): the run no longer waits for its budget.
      return status && !status.pendingBudget ? 'Already raised: the run no longer waits for its budget.' : undefined;
    },
  );
}
