import type { WorkflowHandle } from '@temporalio/client';
import type { ApprovalDecision, DecisionOutcome } from '../contract/approval-decision';
import { decideApprovalsUpdate } from '../contract/agent-run-api';
import { executeUpdate, queryStatus, stringFlag } from './approval-helpers';
import type { CliContext } from './cli-context';
import type { PendingApproval } from '../contract/run-status';
import { NoPendingApprovalError, UsageError } from './errors';
import { signDecision } from './sign-messages';
import { argumentsHash } from '../core/approvals/signatures/signed-message';
import { terminalSafe } from './terminal-safe';

/**
 * Approves every call this run and its sub-agents' runs have parked, in one `decideApprovals` update:
 * the run applies its own calls together or not at all and forwards the others to the runs that wait
 * for them (each decision signed when the approver has a key, for the run that checks it). A call is
 * named by its run and id (two sub-agents may park the same call id): each gets its own decision,
 * which names its run (`workflowId`), so the batch routes it there.
 */
export async function approveAllParked(
  handle: WorkflowHandle,
  options: { approver?: string; reason?: string; calls?: readonly PendingApproval[] },
): Promise<{ callIds: string[]; outcome: DecisionOutcome }> {
  // `calls`: exactly these (the console's "Approve all N" passes the calls the person saw), else all parked.
  const listed = options.calls ?? (await queryStatus(handle)).pendingApprovals;
  // The status lists the run's own calls first, then those of the runs below it; one (run, call) once.
  const runOf = (p: PendingApproval) => p.workflowId || handle.workflowId;
  const parked = listed.filter((p, i, all) => all.findIndex((q) => q.callId === p.callId && runOf(q) === runOf(p)) === i);
  if (parked.length === 0) throw new NoPendingApprovalError(`Run ${handle.workflowId} has no call waiting for approval, neither its own nor a sub-agent's.`);
  const decisions: ApprovalDecision[] = [];
  for (const call of parked) {
    const decision: ApprovalDecision = {
      callId: call.callId,
      workflowId: runOf(call),
      // What is approved is these arguments: the run refuses the decision if the call has others by then.
      argumentsHash: argumentsHash(call.input),
      decision: 'approve',
      ...(options.approver ? { approver: options.approver } : {}),
      ...(options.reason ? { reason: options.reason } : {}),
    };
    decisions.push(await signDecision(handle, decision, async () => [call]));
  }
  const outcome = await executeUpdate(handle, 'the approvals', () => handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions }] }));
  return { callIds: parked.map((c) => c.callId), outcome };
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
