// The message handlers of executions from before the one-writer patch (see ../patches.ts): installed
// after the agent is resolved, dispatching into the state, running the edit check and signalling other
// runs themselves. Kept as they were, so those histories replay; new executions use ../../message-handlers.ts.
import { ApplicationFailure, condition, getExternalWorkflowHandle, setHandler, workflowInfo } from '@temporalio/workflow';
import { FailureType } from '../../../contract/errors';
import { checkEditedArguments } from '../../edit-checks';
import { z } from 'zod';
import { ApprovalDecisionSchema, FollowUpSchema, UserReplySchema, type ApprovalDecision, type DecisionOutcome, type UserReply } from '../../../contract/approval-decision';
import { approvalSignal, childStatusSignal, closeSignal, closeThreadUpdate, decideApprovalUpdate, sendMessageUpdate, submitReplyUpdate, userMessageSignal, userReplySignal } from '../../../contract/agent-run-api';
import type { SigningEnv } from '../../../core/machine/decision-rules';
import { editOutcome, routeDecision, routeReply } from '../../../core/machine/message-routes';
import { senderRefusal } from '../../../core/machine/sender-rules';
import { ChildWaitingSchema } from '../../../contract/run-records';
import type { RunDriver } from '../../run-driver';

const payloadText = (payload: unknown): string => {
  try {
    return JSON.stringify(payload) ?? String(payload);
  } catch {
    return String(payload);
  }
};

/** Handlers change the state; the main loop publishes the phase when it picks the change up (see RunDriver). */
const quiet = { publish: false };

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

const malformed = (issues: { path: PropertyKey[]; message: string }[]) => issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');

/**
 * Installs the message handlers. Both paths refuse exactly the same things with the same pure
 * checks: a signal cannot answer, so what it cannot apply is recorded in `ignored` with the reason
 * (a throwing signal handler would fail the workflow task); an update's validator refuses it before
 * anything is written to history, and the caller gets the reason.
 */
export function installMessageHandlers(driver: RunDriver, options: { toolWideChoices: boolean; approvalChannel: boolean; steering?: boolean }): void {
  // A run that is not a thread takes messages as steering for its next model request (patch steerWorkingRuns).
  const steers = () => Boolean(options.steering) && !driver.state.input.followUps;
  /** Workflow time and the run's identity as the server knows it: what a signature is checked against. */
  const signingEnv = (): SigningEnv => {
    const info = workflowInfo();
    return { now: Date.now(), namespace: info.namespace, firstRunId: info.firstExecutionRunId, legacy: !options.approvalChannel };
  };
  // The decision's audit line is on disk before the update answers (and before any tool it allows starts).
  const decide = async (decision: ApprovalDecision, via: 'signal' | 'update'): Promise<DecisionOutcome> => {
    const route = routeDecision(driver.state, decision, signingEnv());
    if ('forwardTo' in route) {
      await getExternalWorkflowHandle(route.forwardTo).signal(approvalSignal, decision);
      return { applied: true, message: `${decision.decision} for ${decision.callId} forwarded to ${route.forwardTo}, the sub-agent run that waits for it` };
    }
    // Edited arguments are checked by the worker first: a signal's bad edit is recorded, an update's refused.
    const edits = await checkEditedArguments(driver.state, [decision]);
    if ('refusal' in edits) {
      if (via === 'update') throw ApplicationFailure.create({ type: FailureType.DecisionRefused, nonRetryable: true, message: edits.refusal });
      driver.dispatch({ type: 'ignored', kind: 'approval', reason: edits.refusal, payload: payloadText(decision) }, quiet);
      return { applied: false, message: edits.refusal };
    }
    const verified = driver.state.approverKeys !== undefined;
    const before = driver.state.decisions.length;
    const analysis = edits.analyses[decision.callId];
    driver.dispatch({ type: 'decision', decision, via, verified, toolWide: options.toolWideChoices, legacy: !options.approvalChannel, ...(analysis ? { analysis } : {}) }, quiet);
    await driver.flushAudit();
    const settled = driver.state.decisions.length - before;
    const others = settled > 1 ? ` (and ${settled - 1} other pending call(s) it covers)` : '';
    if (decision.arguments !== undefined) return { applied: true, message: editOutcome(driver.state, decision.callId) };
    return { applied: true, message: `${decision.decision} applied to ${decision.callId}${others}` };
  };

  setHandler(approvalSignal, async (raw: unknown) => {
    const parsed = ApprovalDecisionSchema.safeParse(raw);
    if (!parsed.success) {
      driver.dispatch({ type: 'ignored', kind: 'approval', reason: `malformed approval payload: ${malformed(parsed.error.issues)}`, payload: payloadText(raw) }, quiet);
      return;
    }
    const route = routeDecision(driver.state, parsed.data, signingEnv());
    if ('refusal' in route) driver.dispatch({ type: 'ignored', kind: 'approval', reason: route.refusal, payload: payloadText(raw) }, quiet);
    else await decide(parsed.data, 'signal');
  });

  setHandler(decideApprovalUpdate, (decision) => decide(ApprovalDecisionSchema.parse(decision), 'update'), {
    validator: (raw: unknown) => {
      const parsed = ApprovalDecisionSchema.safeParse(raw);
      if (!parsed.success) throw new Error(`Malformed approval: ${malformed(parsed.error.issues)}`);
      const route = routeDecision(driver.state, parsed.data, signingEnv());
      if ('refusal' in route) throw new Error(route.refusal);
    },
  });

  const reply = async (payload: UserReply, via: 'signal' | 'update'): Promise<DecisionOutcome> => {
    const route = routeReply(driver.state, payload, signingEnv());
    if ('forwardTo' in route) {
      // Forwarded whole: the sender and signature are checked by the run that asked.
      await getExternalWorkflowHandle(route.forwardTo).signal(userReplySignal, payload);
      return { applied: true, message: `reply forwarded to ${route.forwardTo}, the sub-agent run that asked` };
    }
    driver.dispatch({ type: 'reply', text: payload.text, via }, quiet);
    return { applied: true, message: 'reply delivered to the agent' };
  };

  setHandler(userReplySignal, async (raw: unknown) => {
    const parsed = UserReplySchema.safeParse(raw);
    if (!parsed.success) {
      driver.dispatch({ type: 'ignored', kind: 'userReply', reason: 'malformed reply payload: expected { "text": "..." }', payload: payloadText(raw) }, quiet);
      return;
    }
    const route = routeReply(driver.state, parsed.data, signingEnv());
    if ('refusal' in route) driver.dispatch({ type: 'ignored', kind: 'userReply', reason: lowerFirst(route.refusal), payload: payloadText(raw) }, quiet);
    else await reply(parsed.data, 'signal');
  });

  setHandler(submitReplyUpdate, (raw) => reply(UserReplySchema.parse(raw), 'update'), {
    validator: (raw: unknown) => {
      const parsed = UserReplySchema.safeParse(raw);
      if (!parsed.success) throw new Error('Malformed reply: expected { "text": "..." }');
      const route = routeReply(driver.state, parsed.data, signingEnv());
      if ('refusal' in route) throw new Error(route.refusal);
    },
  });

  setHandler(childStatusSignal, (raw: unknown) => {
    const parsed = z.object({ workflowId: z.string(), waiting: ChildWaitingSchema }).safeParse(raw);
    // Published at once: the main loop may be waiting on the child run itself and not look again for a while.
    if (parsed.success) driver.dispatch({ type: 'child_waiting', workflowId: parsed.data.workflowId, waiting: parsed.data.waiting });
  });

  setHandler(userMessageSignal, (raw: unknown) => {
    const parsed = FollowUpSchema.safeParse(raw);
    if (!parsed.success) {
      driver.dispatch({ type: 'ignored', kind: 'userMessage', reason: 'malformed message: expected { "text": "..." }', payload: payloadText(raw) }, quiet);
      return;
    }
    const refusal = senderRefusal(driver.state, 'message', parsed.data, signingEnv());
    if (refusal) driver.dispatch({ type: 'ignored', kind: 'userMessage', reason: refusal, payload: payloadText(raw) }, quiet);
    else driver.dispatch({ type: 'user_message', text: parsed.data.text, sender: parsed.data.sender, ...(steers() ? { steer: true } : {}) }, quiet);
  });

  // Answers once the agent's turn on the message has started (it may wait behind the current turn).
  setHandler(
    sendMessageUpdate,
    async ({ text, sender }) => {
      if (steers()) {
        driver.dispatch({ type: 'user_message', text, sender, steer: true }, quiet);
        return { applied: true, message: 'message queued; the model reads it at its next request, after the results of the calls in flight' };
      }
      driver.dispatch({ type: 'user_message', text, sender }, quiet);
      const queued = driver.state.thread.inbox.includes(text);
      // A message that came while the agent was working waits in the inbox for the current turn to end.
      await condition(() => Boolean(driver.state.outcome) || !driver.state.thread.inbox.includes(text));
      return { applied: true, message: queued ? 'message delivered after the current turn' : 'message delivered; the agent is working on it' };
    },
    {
      validator: (raw: unknown) => {
        const parsed = FollowUpSchema.safeParse(raw);
        if (!parsed.success) throw new Error('Malformed message: expected { "text": "..." }');
        if (!driver.state.input.followUps && !options.steering) throw new Error('This run does not take follow-up messages; start it with followUps: true');
        if (driver.state.outcome) throw new Error('The run has ended');
        const refusal = senderRefusal(driver.state, 'message', parsed.data, signingEnv());
        if (refusal) throw new Error(refusal);
      },
    },
  );

  setHandler(closeSignal, () => driver.dispatch({ type: 'close_requested' }, quiet));
  setHandler(
    closeThreadUpdate,
    () => {
      driver.dispatch({ type: 'close_requested' }, quiet);
      return { applied: true, message: driver.state.outcome ? 'thread closed' : 'the thread closes when the agent finishes its current turn' };
    },
    {
      validator: () => {
        if (!driver.state.input.followUps) throw new Error('This run is not a thread; cancel it to stop it');
        if (driver.state.outcome) throw new Error('The run has ended');
      },
    },
  );
}
