import { type Command } from '../cli-context';
import { sendReply } from '../approval-helpers';
import { userReplySignal } from '../../workflows/definitions';
import { UsageError } from '../errors';

/** `agentctl reply <workflowId> <text...>`: answers the question a run asked with need_more_information. */
export const replyCommand: Command = {
  name: 'reply',
  usage: 'agentctl reply <workflowId> <text...> [--signal] [--json]',
  summary: 'answer the question a run is waiting on',
  async run(ctx) {
    const [workflowId, ...words] = ctx.args.positionals;
    if (!workflowId || words.length === 0) throw new UsageError('reply needs a workflow id and the reply text');
    const text = words.join(' ');
    const handle = (await ctx.client()).workflow.getHandle(workflowId);
    if (ctx.args.flags.signal) {
      await handle.signal(userReplySignal, { text });
      ctx.print({ workflowId, text, via: 'signal', applied: null }, () => `Sent the reply to ${workflowId} as a signal (not confirmed).`);
      return 0;
    }
    // The update, so a reply to a run that asked nothing is refused instead of silently dropped.
    const outcome = await sendReply(handle, text);
    ctx.print({ workflowId, text, via: 'update', ...outcome }, () => `${workflowId}: ${outcome.message}`);
    return 0;
  },
};
