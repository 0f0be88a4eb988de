// Issue 32, must-have 4 (truthful answers): a decision on a sub-agent's call is forwarded by an
// update on the run that waits for it, so the root can answer with what that run did with it.
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { z } from 'zod';
import { decideApprovalsUpdate, decideApprovalUpdate } from '../../contract/agent-run-api';
import { ApprovalDecisionSchema } from '../../contract/approval-decision';

export const ForwardDecisionsInputSchema = z.object({ workflowId: z.string().min(1), decisions: z.array(ApprovalDecisionSchema).min(1) });
export type ForwardDecisionsInput = z.infer<typeof ForwardDecisionsInputSchema>;

/** What the run below answered: applied (its message), refused (its reason), or never reached (it ended). */
export type ForwardOutcome = { applied: string } | { refused: string } | { undelivered: string };

/**
 * Sends the decisions to the run that waits for them, as one `decideApproval` (one decision) or
 * `decideApprovals` (all or none there) update, and returns that run's answer. The update id is the
 * same on every attempt of this activity, so a retry after the run applied them gets the same answer
 * and applies nothing twice. Other failures (the server unreachable) are thrown, for Temporal to retry.
 */
export function createForwardDecisions() {
  return async function forwardDecisions(raw: ForwardDecisionsInput): Promise<ForwardOutcome> {
    const { workflowId, decisions } = ForwardDecisionsInputSchema.parse(raw);
    const context = Context.current();
    const { workflowExecution, activityId } = context.info;
    const updateId = `forwarded-by:${workflowExecution?.workflowId ?? ''}:${workflowExecution?.runId ?? ''}:${activityId}`;
    const handle = context.client.workflow.getHandle(workflowId);
    try {
      const outcome =
        decisions.length === 1
          ? await handle.executeUpdate(decideApprovalUpdate, { args: [decisions[0]!], updateId })
          : await handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions }], updateId });
      return { applied: outcome.message };
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError) return { refused: error.cause?.message ?? error.message };
      if (error instanceof WorkflowNotFoundError) return { undelivered: `the run no longer takes decisions (${error.message})` };
      throw error;
    }
  };
}
