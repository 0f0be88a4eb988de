import { type Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { raiseBudget } from '../../client/raise-budget';
import { UsageError } from '../../client/errors';

function positive(flag: string, raw: string | undefined, whole: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
    throw new UsageError(`--${flag} must be a ${whole ? 'whole number' : 'number'} above 0 (got "${raw}")`);
  }
  return value;
}

/**
 * `agentctl budget <workflowId> --raise-usd N [--raise-tokens N]`: raises a run's spend budget to the
 * new limits given (issue 34), as one of its approvers; a run parked by its budget goes on.
 */
export const budgetCommand: Command = {
  name: 'budget',
  usage: 'agentctl budget <workflowId> [--raise-usd USD] [--raise-tokens N] [--approver NAME] [--json]',
  summary: 'raise a run\'s spend budget to new limits (USD, tokens) as one of its approvers; a run parked by its budget goes on',
  async run(ctx) {
    const [workflowId, ...extra] = ctx.args.positionals;
    if (!workflowId || extra.length > 0) throw new UsageError('budget needs one workflow id, e.g. agentctl budget run-7 --raise-usd 5');
    const maxUsd = positive('raise-usd', stringFlag(ctx, 'raise-usd'), false);
    const maxTokens = positive('raise-tokens', stringFlag(ctx, 'raise-tokens'), true);
    if (maxUsd === undefined && maxTokens === undefined) throw new UsageError('budget needs --raise-usd USD or --raise-tokens N (the new limit)');
    const approver = stringFlag(ctx, 'approver') ?? ctx.clientSettings.approver;
    const handle = (await ctx.client()).workflow.getHandle(workflowId);
    const payload = { ...(maxUsd !== undefined ? { maxUsd } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}), ...(approver ? { approver } : {}) };
    const outcome = await raiseBudget(handle, payload);
    ctx.print({ workflowId, ...payload, ...outcome }, () => `${workflowId}: ${outcome.message}`);
    return 0;
  },
};
