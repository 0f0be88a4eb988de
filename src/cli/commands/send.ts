import { type Command } from '../../client/cli-context';
import { queryStatus, stringFlag, withWorkerDeadline } from '../../client/approval-helpers';
import { signFollowUp } from '../../client/sign-messages';
import { renderToolCall } from '../../client/render-status';
import { terminalSafe } from '../../client/terminal-safe';
import { sendMessageUpdate, userMessageSignal } from '../../contract/agent-run-api';
import { DecisionRefusedError, UsageError } from '../../client/errors';
import { WorkflowUpdateFailedError } from '@temporalio/client';

const POLL_MS = 500;

/**
 * `agentctl send <workflowId> <text...>`: a follow-up message for a thread (a run started with
 * `followUps: true`), or a steering message for any other run that is working or parked (the model
 * reads it at its next request). Sent with the `sendMessage` update; for a thread it answers once the
 * agent's turn on it has started, and the turn is followed until the agent answers (the thread waits
 * again) or the run ends. `--signal` only sends it (stored by the server even while no worker runs).
 */
export const sendCommand: Command = {
  name: 'send',
  usage: 'agentctl send <workflowId> <text...> [--approver NAME] [--signal] [--detach] [--json]',
  summary: 'send a thread a follow-up (and follow the answer), or steer a working run',
  async run(ctx) {
    const [workflowId, ...words] = ctx.args.positionals;
    if (!workflowId || words.length === 0) throw new UsageError('send needs a workflow id and the message text');
    const text = words.join(' ');
    const handle = (await ctx.client()).workflow.getHandle(workflowId);
    // The server refuses any message to a closed run with a bare error; say what to do instead.
    const execution = (await handle.describe()).status.name;
    if (execution !== 'RUNNING') {
      throw new DecisionRefusedError(`Run ${workflowId} has ended (${execution.toLowerCase()}) and takes no messages; start a new run, or fork it: agentctl fork ${workflowId} --iteration N --task "..."`);
    }
    // Named (and signed when the sender has a key): a run with approvers takes messages only from them,
    // and the audit log names the sender on the calls the message leads to.
    const message = await signFollowUp(handle, { text, sender: stringFlag(ctx, 'approver') ?? ctx.clientSettings.approver });
    if (ctx.args.flags.signal) {
      await handle.signal(userMessageSignal, message);
      ctx.print({ workflowId, text, via: 'signal', applied: null }, () => `Sent the message to ${workflowId} as a signal (not confirmed).`);
      return 0;
    }
    const initial = await queryStatus(handle);
    // The status lists only the latest completions; the count says how many there are in all.
    const completionsOf = (status: typeof initial) => status.completionCount ?? status.completions.length;
    const before = completionsOf(initial);
    const outcome = await withWorkerDeadline(handle, 'the message', () => handle.executeUpdate(sendMessageUpdate, { args: [message] })).catch((error: unknown) => {
      if (error instanceof WorkflowUpdateFailedError) throw new DecisionRefusedError(error.cause?.message ?? error.message);
      throw error;
    });
    // A run that is not a thread has no answer to this message of its own: it goes on with its work.
    if (ctx.args.flags.detach || !initial.followUps) {
      ctx.print({ workflowId, text, ...outcome }, () => `${workflowId}: ${outcome.message}`);
      return 0;
    }
    if (!ctx.json) ctx.out(`${workflowId}: ${outcome.message}`);
    const shown = new Set<string>();
    for (;;) {
      const status = await queryStatus(handle);
      for (const call of status.recentToolCalls) {
        const key = `${call.callId}/${call.outcome}`;
        if (shown.has(key) || call.outcome === 'running' || call.outcome === 'waiting') continue;
        shown.add(key);
        if (!ctx.json) ctx.out(`  ${renderToolCall(call)}`);
      }
      const answered = completionsOf(status) > before ? status.completions.at(-1) : undefined;
      const ended = ['completed', 'max_iterations', 'failed', 'cancelled', 'guardrail_tripped', 'budget_exhausted'].includes(status.phase);
      if (answered || ended) {
        ctx.print({ workflowId, phase: status.phase, completion: answered ?? status.completion }, () =>
          answered ? `✅ ${answered.status}: ${terminalSafe(answered.summary)}\nThe thread waits for the next message (agentctl send ${workflowId} "...", or agentctl close ${workflowId}).` : `The run ended: ${status.phase}.`,
        );
        return answered ? 0 : 1;
      }
      if (status.phase === 'waiting_approval' || status.phase === 'waiting_input' || status.phase === 'waiting_budget') {
        if (!ctx.json) ctx.out(`The run waits for a person: agentctl pending / ${status.phase === 'waiting_budget' ? 'budget' : 'approve'} ${workflowId}`);
        return 0;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  },
};
