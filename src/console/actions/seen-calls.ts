// Issue 32, findings 3 and 4: the console decides and signs only what the person saw. The page sends
// each call's `argumentsHash` (computed by the console when it listed the call); before deciding, the
// call is looked up as the run lists it now, and a call that changed (edited by another approver and
// parked again under the same id) or left is refused, not decided with arguments nobody displayed.
import type { WorkflowHandle } from '@temporalio/client';
import { queryStatus } from '../../client/approval-helpers';
import { DecisionRefusedError } from '../../client/errors';
import type { PendingApproval } from '../../contract/run-status';
import { ArgumentsHashSchema } from '../../contract/approval-decision';
import { ShownCallSchema, type ShownCall } from '../../contract/approval-batch';
import { argumentsHash } from '../../core/approvals/signatures/signed-message';

/** One call as the page showed it (the contract's ShownCall). */
export { ArgumentsHashSchema, ShownCallSchema as SeenCallSchema };
export type SeenCall = ShownCall;

/**
 * The parked calls `seen` names, as `handle`'s run (which lists its sub-agents' too) reports them now,
 * in the same order; refuses all of them when any one is gone or has other arguments now.
 */
export async function callsAsSeen(handle: WorkflowHandle, seen: readonly SeenCall[]): Promise<PendingApproval[]> {
  const pending = (await queryStatus(handle)).pendingApprovals;
  const found: PendingApproval[] = [];
  const changed: string[] = [];
  const gone: string[] = [];
  for (const s of seen) {
    const call = pending.find((p) => p.callId === s.callId && (p.workflowId || handle.workflowId) === s.workflowId);
    if (!call) gone.push(s.callId);
    else if (argumentsHash(call.input) !== s.argumentsHash) changed.push(s.callId);
    else found.push(call);
  }
  if (gone.length > 0) {
    // A run that ended takes nothing any more: say so, as a decision sent to it would be told.
    const ended = await handle.describe().then((d) => (d.status.name === 'RUNNING' ? undefined : d.status.name), () => undefined);
    if (ended) throw new DecisionRefusedError(`Run ${handle.workflowId} has already ended (${ended}); it no longer takes decisions or replies.`);
  }
  if (changed.length > 0 || gone.length > 0) {
    const parts = [
      changed.length > 0 ? `the arguments of ${changed.join(', ')} changed since the page showed them (edited by someone else)` : '',
      gone.length > 0 ? `${gone.join(', ')} no longer wait${gone.length === 1 ? 's' : ''} for approval` : '',
    ].filter(Boolean);
    throw new DecisionRefusedError(`Nothing was decided: ${parts.join('; ')}. Look at the calls again before deciding.`);
  }
  return found;
}
