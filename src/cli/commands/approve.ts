import type { Command } from '../../client/cli-context';
import { decideFromCli } from '../../client/approval-helpers';
import { approveAllFromCli } from '../../client/decide-all';

/** `agentctl approve <workflowId> [callId]`: lets a parked tool call run. */
export const approveCommand: Command = {
  name: 'approve',
  usage:
    'agentctl approve <workflowId> [callId] [--always [--prefix "WORDS"] | --always-tool] [--arguments JSON | --edit | --all] [--reason R] [--approver NAME] [--signal] [--json]',
  summary:
    'approve a parked tool call (--always: also this command in this person\'s later runs; --prefix: commands starting so; --always-tool: every call of the tool; --arguments/--edit: run it with other arguments; --all: every parked call at once)',
  run: (ctx) => ctx.args.flags.all ? approveAllFromCli(ctx) : decideFromCli(ctx, ctx.args.flags.always || ctx.args.flags['always-tool'] ? 'approve_always' : 'approve'),
};
