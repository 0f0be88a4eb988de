import type { Command } from '../../client/cli-context';
import { decideFromCli } from '../../client/approval-helpers';

/** `agentctl approve <workflowId> [callId]`: lets a parked tool call run. */
export const approveCommand: Command = {
  name: 'approve',
  usage:
    'agentctl approve <workflowId> [callId] [--always [--prefix "WORDS"] | --always-tool] [--reason R] [--approver NAME] [--signal] [--json]',
  summary:
    'approve a parked tool call (--always: also this command in this person\'s later runs; --prefix: commands starting so; --always-tool: every call of the tool)',
  run: (ctx) => decideFromCli(ctx, ctx.args.flags.always || ctx.args.flags['always-tool'] ? 'approve_always' : 'approve'),
};
