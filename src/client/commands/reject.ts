import type { Command } from '../cli-context';
import { decideFromCli } from '../approval-helpers';

/** `agentctl reject <workflowId> [callId]`: the model is told the call was refused, and the run goes on. */
export const rejectCommand: Command = {
  name: 'reject',
  usage: 'agentctl reject <workflowId> [callId] [--never] [--reason R] [--approver NAME] [--signal] [--json]',
  summary: 'reject a parked tool call (--never: also in this person\'s later runs)',
  run: (ctx) => decideFromCli(ctx, ctx.args.flags.never ? 'reject_always' : 'reject'),
};
