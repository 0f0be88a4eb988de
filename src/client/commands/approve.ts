import type { Command } from '../cli-context';
import { decideFromCli } from '../approval-helpers';

/** `agentctl approve <workflowId> [callId]`: lets a parked tool call run. */
export const approveCommand: Command = {
  name: 'approve',
  usage: 'agentctl approve <workflowId> [callId] [--always] [--reason R] [--approver NAME] [--signal] [--json]',
  summary: 'approve a parked tool call (--always: also for this person\'s later runs)',
  run: (ctx) => decideFromCli(ctx, ctx.args.flags.always ? 'approve_always' : 'approve'),
};
