import { type Command } from '../../client/cli-context';
import { queryStatus, sendReply, stringFlag } from '../../client/approval-helpers';
import { signReply } from '../../client/sign-messages';
import { userReplySignal } from '../../contract/agent-run-api';
import { UsageError } from '../../client/errors';

/** `agentctl reply <workflowId> <text...>`: answers the question a run asked with need_more_information. */
export const replyCommand: Command = {
  name: 'reply',
  usage: 'agentctl reply <workflowId> <text...> [--approver NAME] [--signal] [--json]',
  summary: 'answer the question a run is waiting on',
  async run(ctx) {
    const [workflowId, ...words] = ctx.args.positionals;
    if (!workflowId || words.length === 0) throw new UsageError('reply needs a workflow id and the reply text');
    const text = words.join(' ');
    const handle = (await ctx.client()).workflow.getHandle(workflowId);
    // Named, so a run with approvers can tell whether an approver answers (signed when they have a key).
    const reply = { text, sender: stringFlag(ctx, 'approver') ?? ctx.clientSettings.approver };
    if (ctx.args.flags.signal) {
      await handle.signal(userReplySignal, await signReply(handle, reply, async () => (await queryStatus(handle)).pendingQuestions));
      ctx.print({ workflowId, text, via: 'signal', applied: null }, () => `Sent the reply to ${workflowId} as a signal (not confirmed).`);
      return 0;
    }
    // The update, so a reply to a run that asked nothing is refused instead of silently dropped.
    const outcome = await sendReply(handle, reply);
    ctx.print({ workflowId, text, via: 'update', ...outcome }, () => `${workflowId}: ${outcome.message}`);
    return 0;
  },
};
