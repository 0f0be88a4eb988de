import { workflowIdArg, type Command } from '../../client/cli-context';
import { followFromCli } from '../../client/follow-cli';

/** `agentctl watch <workflowId>`: follows a run that is already going, as `run` does. */
export const watchCommand: Command = {
  name: 'watch',
  usage: 'agentctl watch <workflowId> [--interactive] [--approver NAME] [--no-thinking] [--json]',
  summary: 'follow a run live, with approval prompts when stdin is a terminal',
  async run(ctx) {
    const workflowId = workflowIdArg(ctx, 'watch');
    const handle = (await ctx.client()).workflow.getHandle(workflowId);
    // Fails with WorkflowNotFoundError for an unknown id before anything is printed.
    await handle.describe();
    return followFromCli(ctx, handle);
  },
};
