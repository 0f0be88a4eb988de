import { type Command } from '../cli-context';
import { followFromCli } from '../follow-cli';
import { resumeRun } from '../resume-run';
import { UsageError } from '../errors';
import { terminalSafe } from '../terminal-safe';

/**
 * `agentctl resume <workflowId>`: continues a run as a new run (`<id>-r2`). A run that stopped at its
 * iteration cap or ended blocked or partial is continued with its task list, saved key points, summary
 * and usage; a run that failed or was cancelled is continued with its whole state, conversation included.
 */
export const resumeCommand: Command = {
  name: 'resume',
  usage: 'agentctl resume <workflowId> [--iterations N] [--detach] [--json]',
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
    const { plan, handle } = await resumeRun(client, workflowId, { taskQueue: ctx.settings.taskQueue, maxIterations });
    const started = { workflowId: handle.workflowId, resumedFrom: workflowId, resumedFromRunId: plan.memo.resumedFromRunId };
    if (ctx.args.flags.detach) {
      ctx.print(started, () => `Resumed ${workflowId} as ${handle.workflowId}`);
      return 0;
    }
    if (!ctx.json) ctx.out(`Resumed ${workflowId} as ${handle.workflowId}; following it.`);
    // A continued run may park again on what it was waiting for: follow it like `run` does.
    if (plan.input.checkpoint !== undefined) return followFromCli(ctx, handle);
    const result = await handle.result();
    ctx.print({ ...started, result }, () =>
      [
        `Run ${handle.workflowId}: ${result.status} after ${result.iterations} more iteration(s) (${(plan.input.resume?.iterationsBefore ?? 0) + result.iterations} in all)`,
        result.completion ? `${result.completion.status}: ${terminalSafe(result.completion.summary)}` : '(no completion)',
        result.status === 'max_iterations' ? `Still not done: agentctl resume ${handle.workflowId}` : '',
        `Tokens so far: ${result.usage.inputTokens} in / ${result.usage.outputTokens} out`,
      ]
        .filter(Boolean)
        .join('\n'),
    );
    return 0;
  },
};
