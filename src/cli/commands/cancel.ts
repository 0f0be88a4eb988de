import { workflowIdArg, type Command } from '../../client/cli-context';
import { renderOutcome } from '../../client/render-status';
import { awaitOutcome, exitCodeOf } from '../../client/run-outcome';

/** How long `cancel` waits to confirm; a run whose worker is down only ends when one comes back. */
const CONFIRM_TIMEOUT_MS = 30_000;

/**
 * `agentctl cancel <workflowId>`: Temporal cancellation. The run stops at its next step (a parked
 * run at once), records phase `cancelled` and ends as cancelled, not failed.
 */
export const cancelCommand: Command = {
  name: 'cancel',
  usage: 'agentctl cancel <workflowId> [--no-wait] [--json]',
  summary: 'cancel a run; it ends as cancelled',
  async run(ctx) {
    const workflowId = workflowIdArg(ctx, 'cancel');
    const handle = (await ctx.client()).workflow.getHandle(workflowId);
    const description = await handle.describe();
    if (description.status.name !== 'RUNNING') {
      ctx.print({ workflowId, cancelled: false, execution: description.status.name }, () => `Run ${workflowId} already ended (${description.status.name}); nothing to cancel.`);
      return 1;
    }
    await handle.cancel();
    if (ctx.args.flags['no-wait']) {
      ctx.print({ workflowId, cancelRequested: true }, () => `Cancellation requested for ${workflowId}.`);
      return 0;
    }
    const outcome = await Promise.race([
      awaitOutcome(handle),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), CONFIRM_TIMEOUT_MS).unref()),
    ]);
    if (!outcome) {
      ctx.print({ workflowId, cancelRequested: true, confirmed: false }, () =>
        `Cancellation requested for ${workflowId}; it ends as cancelled when a worker next runs it (is one running?).`,
      );
      return 0;
    }
    ctx.print(outcome, () => renderOutcome(outcome));
    return outcome.kind === 'cancelled' ? 0 : exitCodeOf(outcome);
  },
};
