import type { ApprovalDecision, DecisionOutcome } from '../contract/approval-decision';
import { decideApprovalsUpdate } from '../contract/agent-run-api';
import { executeUpdate, queryStatus, stringFlag } from './approval-helpers';
import type { CliContext } from './cli-context';
import { NoPendingApprovalError, UsageError } from './errors';
import { signDecision } from './sign-messages';
import { terminalSafe } from './terminal-safe';

/**
 * `agentctl approve <workflowId> --all`: approves every call this run has parked, in one
 * `decideApprovals` update, so they are applied together or not at all. Calls a sub-agent's run waits
 * for are left to be decided one by one (the batch applies to this run only).
 */
export async function approveAllFromCli(ctx: CliContext): Promise<number> {
  const [workflowId, extra] = ctx.args.positionals;
  if (!workflowId || extra) throw new UsageError('approve --all needs exactly one workflow id (and no callId)');
  if (ctx.args.flags.arguments !== undefined || ctx.args.flags.edit || ctx.args.flags.signal) throw new UsageError('--all goes without --arguments, --edit and --signal');
  const handle = (await ctx.client()).workflow.getHandle(workflowId);
  const status = await queryStatus(handle);
  const own = status.pendingApprovals.filter((p) => !p.workflowId || p.workflowId === workflowId);
  if (own.length === 0) throw new NoPendingApprovalError(`Run ${workflowId} has no call of its own waiting for approval.`);
  const approver = stringFlag(ctx, 'approver') ?? ctx.clientSettings.approver;
  const reason = stringFlag(ctx, 'reason');
  const decisions: ApprovalDecision[] = [];
  for (const call of own) {
    const decision: ApprovalDecision = { callId: call.callId, decision: 'approve', approver, ...(reason ? { reason } : {}) };
    decisions.push(await signDecision(handle, decision, async () => [call]));
  }
  const outcome: DecisionOutcome = await executeUpdate(handle, 'the approvals', () => handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions }] }));
  ctx.print({ workflowId, callIds: own.map((c) => c.callId), via: 'update', ...outcome }, () => `${workflowId}: ${terminalSafe(outcome.message)}`);
  return 0;
}
