import type { WorkflowHandle } from '@temporalio/client';
import type { ApprovalDecision, DecisionOutcome } from '../contract/approval-decision';
import { decideApprovalsUpdate } from '../contract/agent-run-api';
import { executeUpdate, queryStatus, stringFlag } from './approval-helpers';
import type { CliContext } from './cli-context';
import { NoPendingApprovalError, UsageError } from './errors';
import { signDecision } from './sign-messages';
import { terminalSafe } from './terminal-safe';

/**
 * Approves every call this run has parked, in one `decideApprovals` update, so they are applied
 * together or not at all (each signed when the approver has a key). Calls a sub-agent's run waits
 * for are left to be decided one by one: a batch applies to the run it is sent to.
 */
export async function approveAllParked(handle: WorkflowHandle, options: { approver?: string; reason?: string }): Promise<{ callIds: string[]; outcome: DecisionOutcome }> {
  const status = await queryStatus(handle);
  const own = status.pendingApprovals.filter((p) => !p.workflowId || p.workflowId === handle.workflowId);
  if (own.length === 0) throw new NoPendingApprovalError(`Run ${handle.workflowId} has no call of its own waiting for approval.`);
  const decisions: ApprovalDecision[] = [];
  for (const call of own) {
    const decision: ApprovalDecision = { callId: call.callId, decision: 'approve', ...(options.approver ? { approver: options.approver } : {}), ...(options.reason ? { reason: options.reason } : {}) };
    decisions.push(await signDecision(handle, decision, async () => [call]));
  }
  const outcome = await executeUpdate(handle, 'the approvals', () => handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions }] }));
  return { callIds: own.map((c) => c.callId), outcome };
}

/** `agentctl approve <workflowId> --all`. */
export async function approveAllFromCli(ctx: CliContext): Promise<number> {
  const [workflowId, extra] = ctx.args.positionals;
  if (!workflowId || extra) throw new UsageError('approve --all needs exactly one workflow id (and no callId)');
  if (ctx.args.flags.arguments !== undefined || ctx.args.flags.edit || ctx.args.flags.signal) throw new UsageError('--all goes without --arguments, --edit and --signal');
  const handle = (await ctx.client()).workflow.getHandle(workflowId);
  const { callIds, outcome } = await approveAllParked(handle, { approver: stringFlag(ctx, 'approver') ?? ctx.clientSettings.approver, reason: stringFlag(ctx, 'reason') });
  ctx.print({ workflowId, callIds, via: 'update', ...outcome }, () => `${workflowId}: ${terminalSafe(outcome.message)}`);
  return 0;
}
