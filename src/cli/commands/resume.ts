import { type Command } from '../../client/cli-context';
import { followFromCli } from '../../client/follow-cli';
import { resumeRun } from '../../client/resume-run';
import { UsageError } from '../../client/errors';
import { stringFlag } from '../../client/approval-helpers';

/**
 * `agentctl resume <workflowId>`: continues an ended run as a new run (`<id>-r2`), whichever way it
 * ended (at its iteration cap, blocked or partial, failed, cancelled): from its whole state, the
 * conversation included, read from its checkpoint (a worker must be running to read it).
 */
export const resumeCommand: Command = {
  name: 'resume',
  usage: 'agentctl resume <workflowId> [--iterations N] [--approver NAME] [--detach] [--json]',
  summary: 'continue a run that failed, was cancelled, hit its iteration cap or ended blocked/partial, as a new linked run',
  async run(ctx) {
    const [workflowId, ...extra] = ctx.args.positionals;
    if (!workflowId || extra.length > 0) throw new UsageError('resume needs exactly one workflow id');
    const raw = ctx.args.flags.iterations;
    const maxIterations = raw === undefined ? undefined : Number(raw);
    if (maxIterations !== undefined && !(Number.isInteger(maxIterations) && maxIterations > 0)) {
      throw new UsageError(`--iterations must be a positive whole number, not "${String(raw)}"`);
    }

    const client = await ctx.client();
    const { plan, handle } = await resumeRun(client, workflowId, { taskQueue: ctx.settings.taskQueue, maxIterations, requestedBy: stringFlag(ctx, 'approver') ?? ctx.clientSettings.approver });
    const started = { workflowId: handle.workflowId, resumedFrom: workflowId, resumedFromRunId: plan.memo.resumedFromRunId };
    if (ctx.args.flags.detach) {
      ctx.print(started, () => `Resumed ${workflowId} as ${handle.workflowId}`);
      return 0;
    }
    if (!ctx.json) ctx.out(`Resumed ${workflowId} as ${handle.workflowId}; following it.`);
    // The resumed run may park again on what it was waiting for: follow it like `run` does.
    return followFromCli(ctx, handle);
  },
};
