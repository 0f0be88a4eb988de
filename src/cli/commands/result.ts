import { workflowIdArg, type Command } from '../../client/cli-context';
import { renderOutcome } from '../../client/render-status';
import { awaitOutcome, exitCodeOf } from '../../client/run-outcome';

/** `agentctl result <workflowId>`: waits for the run to end and prints how it ended. */
export const resultCommand: Command = {
  name: 'result',
  usage: 'agentctl result <workflowId> [--json]',
  summary: "wait for a run's result (completed, failed or cancelled) and print it",
  async run(ctx) {
    const workflowId = workflowIdArg(ctx, 'result');
    const outcome = await awaitOutcome((await ctx.client()).workflow.getHandle(workflowId));
    ctx.print(outcome, () => renderOutcome(outcome));
    return exitCodeOf(outcome);
  },
};
