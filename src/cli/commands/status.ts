import { workflowIdArg, type Command } from '../../client/cli-context';
import { queryStatus } from '../../client/approval-helpers';
import { renderStatus } from '../../client/render-status';
import { NoWorkerAnsweredError } from '../../client/errors';
import { terminalSafe } from '../../client/terminal-safe';

/** `agentctl status <workflowId>`: the run's `status` query, or what Temporal knows when no worker answers. */
export const statusCommand: Command = {
  name: 'status',
  usage: 'agentctl status <workflowId> [--json]',
  summary: "show a run's phase, progress, pending approvals, recent tool calls and tokens",
  async run(ctx) {
    const workflowId = workflowIdArg(ctx, 'status');
    const handle = (await ctx.client()).workflow.getHandle(workflowId);
    const description = await handle.describe();
    try {
      const status = await queryStatus(handle, 10_000);
      ctx.print(status, () => `${renderStatus(status)}\nTemporal: ${description.status.name}, started ${description.startTime.toISOString()}`);
      return 0;
    } catch (error) {
      // A run that failed before it resolved its agent has no status to report; a run whose worker is
      // down cannot answer. Either way, Temporal's own view is still worth showing.
      const why =
        error instanceof NoWorkerAnsweredError
          ? 'no worker answered the status query; start one with `npm run worker`'
          : (error as Error).message;
      ctx.print({ workflowId, execution: description.status.name, startTime: description.startTime, closeTime: description.closeTime, error: why }, () =>
        [`Run ${workflowId}: ${description.status.name} (started ${description.startTime.toISOString()})`, `No run status: ${terminalSafe(why)}`].join('\n'),
      );
      return description.status.name === 'RUNNING' ? 1 : 0;
    }
  },
};
