import { WorkflowUpdateFailedError } from '@temporalio/client';
import { type Command } from '../../client/cli-context';
import { withWorkerDeadline } from '../../client/approval-helpers';
import { closeSignal, closeThreadUpdate } from '../../contract/agent-run-api';
import { DecisionRefusedError, UsageError } from '../../client/errors';

/** `agentctl close <workflowId>`: ends a thread (at once when it is idle, else after its current turn). */
export const closeCommand: Command = {
  name: 'close',
  usage: 'agentctl close <workflowId> [--signal] [--json]',
  summary: 'close a thread (a run started with followUps): its result lists every turn\'s completion',
  async run(ctx) {
    const [workflowId, ...extra] = ctx.args.positionals;
    if (!workflowId || extra.length > 0) throw new UsageError('close needs exactly one workflow id');
    const handle = (await ctx.client()).workflow.getHandle(workflowId);
    if (ctx.args.flags.signal) {
      await handle.signal(closeSignal);
      ctx.print({ workflowId, via: 'signal', applied: null }, () => `Asked ${workflowId} to close (a signal, not confirmed).`);
      return 0;
    }
    const outcome = await withWorkerDeadline(handle, 'the close', () => handle.executeUpdate(closeThreadUpdate, { args: [] })).catch((error: unknown) => {
      if (error instanceof WorkflowUpdateFailedError) throw new DecisionRefusedError(error.cause?.message ?? error.message);
      throw error;
    });
    ctx.print({ workflowId, ...outcome }, () => `${workflowId}: ${outcome.message}`);
    return 0;
  },
};
