import type { Command } from '../../client/cli-context';
import { decideFromCli } from '../../client/approval-helpers';

/** `agentctl reject <workflowId> [callId]`: the model is told the call was refused, and the run goes on. */
export const rejectCommand: Command = {
  name: 'reject',
  usage: 'agentctl reject <workflowId> [callId] [--never [--prefix "WORDS"] | --never-tool] [--reason R] [--approver NAME] [--signal] [--json]',
  summary: 'reject a parked tool call (--never: also this command in this person\'s later runs; --never-tool: every call of the tool)',
  run: (ctx) => decideFromCli(ctx, ctx.args.flags.never || ctx.args.flags['never-tool'] ? 'reject_always' : 'reject'),
};
