import { UsageError, type Command } from '../cli-context';
import { startRun } from '../start-run';

/** `agentctl run <agent> <task...>`: starts a run and waits for its result. */
export const runCommand: Command = {
  name: 'run',
  usage: 'agentctl run <agent> <task...> [--max-iterations N] [--user NAME] [--id WORKFLOW_ID] [--detach] [--json]',
  summary: 'start a run and follow it to the end',
  async run(ctx) {
    const [agent, ...words] = ctx.args.positionals;
    if (!agent || words.length === 0) throw new UsageError('run needs an agent and a task');
    const maxIterations = ctx.args.flags['max-iterations'] ? Number(ctx.args.flags['max-iterations']) : undefined;
    const client = await ctx.client();
    const handle = await startRun(
      client,
      {
        agent,
        task: words.join(' '),
        maxIterations,
        user: typeof ctx.args.flags.user === 'string' ? ctx.args.flags.user : undefined,
      },
      { taskQueue: ctx.settings.taskQueue, workflowId: typeof ctx.args.flags.id === 'string' ? ctx.args.flags.id : undefined },
    );
    if (ctx.args.flags.detach) {
      ctx.print({ workflowId: handle.workflowId }, () => `Started ${handle.workflowId}`);
      return 0;
    }
    const result = await handle.result();
    ctx.print(result, () =>
      [
        `Run ${handle.workflowId}: ${result.status} after ${result.iterations} iteration(s)`,
        result.completion ? `${result.completion.status}: ${result.completion.summary}` : '(no completion)',
        result.completion?.next_steps ? `Next steps: ${result.completion.next_steps}` : '',
        `Tokens: ${result.usage.inputTokens} in / ${result.usage.outputTokens} out`,
      ]
        .filter(Boolean)
        .join('\n'),
    );
    return 0;
  },
};
