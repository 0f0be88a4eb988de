import { ApplicationFailure, setHandler, workflowInfo } from '@temporalio/workflow';
import { z } from 'zod';
import { ApprovalBatchSchema } from '../contract/approval-batch';
import { ApprovalDecisionSchema, FollowUpSchema, UserReplySchema, type DecisionOutcome } from '../contract/approval-decision';
import {
  approvalSignal,
  childStatusSignal,
  closeSignal,
  closeThreadUpdate,
  decideApprovalsUpdate,
  decideApprovalUpdate,
  sendMessageUpdate,
  setModeUpdate,
  raiseBudgetSignal,
  raiseBudgetUpdate,
  submitReplyUpdate,
  userMessageSignal,
  userReplySignal,
} from '../contract/agent-run-api';
import { FailureType } from '../contract/errors';
import { SetModeSchema } from '../contract/permission-mode';
import { RaiseBudgetSchema } from '../contract/budget';
import { routeRaise } from '../core/machine/budget-rules';
import { ChildWaitingSchema } from '../contract/run-records';
import { batchRefusal } from '../core/machine/batch-rules';
import type { SigningEnv } from '../core/machine/decision-rules';
import { closeRefusal, followUpRefusal, modeRefusal } from '../core/machine/message-rules';
import { routeDecision, routeReply } from '../core/machine/message-routes';
import type { RunState } from '../core/machine/run-state';
import type { Answer, Mailbox, Message } from './mailbox';

/** How this execution takes messages (see compat/patches.ts). */
export interface MessageOptions {
  /** "Always"/"never" are remembered for the whole tool (executions from before scoped choices). */
  toolWideChoices: boolean;
  /** Signatures of the v2 channel, approver prefixes checked (patch approvalChannel). */
  approvalChannel: boolean;
  /** A run that is not a thread takes follow-ups as steering (patch steerWorkingRuns). */
  steering: boolean;
  /** Issue 32's checks: child reports, arguments hashes, replays (patch approvalChannelII). */
  approvalChannelII: boolean;
  /** A signed decision, reply or message is accepted once (patch signedOnce). */
  signedOnce: boolean;
  /** A decision on a sub-agent's call is forwarded by an update, and answered with that run's answer (patch forwardByUpdate). */
  forwardByUpdate: boolean;
  /** A signed budget raise is accepted once (patch accountableRaises). */
  raisesOnce: boolean;
}

/** What the handlers and the loop check a message against: workflow time and the run's identity. */
export function signingEnvOf(options: MessageOptions): SigningEnv & { runId: string; toolWide: boolean } {
  const info = workflowInfo();
  return { now: Date.now(), namespace: info.namespace, firstRunId: info.firstExecutionRunId, runId: info.runId, legacy: !options.approvalChannel, channelII: options.approvalChannelII, signedOnce: options.signedOnce, raisesOnce: options.raisesOnce, toolWide: options.toolWideChoices };
}

const malformed = (issues: { path: PropertyKey[]; message: string }[]) => issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');

const ChildStatusSchema = z.object({ workflowId: z.string(), waiting: ChildWaitingSchema });

/**
 * A refusal as a failure the caller can tell apart (DecisionRefused), whether the validator refuses
 * (before the update is written) or the loop does (after): which one answers depends only on whether
 * the messages before it were applied yet, so the two must look the same to the caller.
 */
function refused(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: FailureType.DecisionRefused, nonRetryable: true, message });
}

/** An update's answer: what was applied, or the refusal (DecisionRefused). */
function outcomeOf(answer: Answer): DecisionOutcome {
  if ('refused' in answer) throw refused(answer.refused);
  return { applied: true, message: answer.message };
}

/**
 * Installs every signal and update handler of `agentRun`; called before the run's first `await`, so
 * a message sent with the start, or while the worker resolves the agent, finds its handler. Handlers
 * only validate and queue: each parses its payload, posts it to the mailbox and waits for the answer
 * the loop gives once it has applied it (a signal's refusal is recorded in `ignored` by the loop; an
 * update's is thrown as a DecisionRefused failure). An update's validator refuses what it can before
 * anything is written to history: a malformed payload always, and, once the run has its state, what
 * the state refuses, with the very check the loop makes again right before it applies the message.
 * While the run starts there is no state yet, so the validator accepts and the loop decides.
 */
export function installMessageHandlers(mailbox: Mailbox, state: () => RunState | undefined, options: MessageOptions): void {
  const env = () => signingEnvOf(options);
  // A closed mailbox (the run ended, or hands over) refuses in the validator, before the update is written.
  const open = () => {
    if (mailbox.closed !== undefined) throw refused(mailbox.closed);
  };
  const signal = (message: Message, raw: unknown) => mailbox.post(message, raw).then(() => undefined);
  const update = async (message: Message, raw: unknown) => outcomeOf(await mailbox.post(message, raw));

  setHandler(approvalSignal, (raw: unknown) => {
    const parsed = ApprovalDecisionSchema.safeParse(raw);
    if (!parsed.success) return signal({ kind: 'malformed', ignoredAs: 'approval', reason: `malformed approval payload: ${malformed(parsed.error.issues)}`, payload: raw }, raw);
    return signal({ kind: 'decision', decision: parsed.data, via: 'signal' }, raw);
  });
  setHandler(decideApprovalUpdate, (raw) => update({ kind: 'decision', decision: ApprovalDecisionSchema.parse(raw), via: 'update' }, raw), {
    validator: (raw: unknown) => {
      open();
      const parsed = ApprovalDecisionSchema.safeParse(raw);
      if (!parsed.success) throw refused(`Malformed approval: ${malformed(parsed.error.issues)}`);
      const now = state();
      const route = now && routeDecision(now, parsed.data, env());
      if (route && 'refusal' in route) throw refused(route.refusal);
    },
  });

  // An update, not a signal: the caller must learn which decision of a batch was refused.
  setHandler(decideApprovalsUpdate, (raw) => update({ kind: 'decisions', decisions: ApprovalBatchSchema.parse(raw).decisions }, raw), {
    // Everything but the edits' schema checks is refused here, before the update reaches the history.
    validator: (raw: unknown) => {
      open();
      const parsed = ApprovalBatchSchema.safeParse(raw);
      if (!parsed.success) throw refused(`Malformed batch: ${malformed(parsed.error.issues)}`);
      const now = state();
      const refusal = now && batchRefusal(now, parsed.data.decisions.map((decision) => ({ decision })), env());
      if (refusal) throw refused(refusal);
    },
  });

  setHandler(setModeUpdate, (raw) => update({ kind: 'mode', change: SetModeSchema.parse(raw) }, raw), {
    validator: (raw: unknown) => {
      open();
      const parsed = SetModeSchema.safeParse(raw);
      if (!parsed.success) throw refused(`Malformed mode switch: ${malformed(parsed.error.issues)} (modes: default, plan, acceptEdits, dontAsk)`);
      const now = state();
      const refusal = now && modeRefusal(now, parsed.data);
      if (refusal) throw refused(refusal);
    },
  });

  // Issue 34: registered on every execution; one that started without a budget refuses every raise.
  setHandler(raiseBudgetSignal, (raw: unknown) => {
    const parsed = RaiseBudgetSchema.safeParse(raw);
    if (!parsed.success) return signal({ kind: 'malformed', ignoredAs: 'raiseBudget', reason: `malformed raiseBudget payload: ${malformed(parsed.error.issues)}`, payload: raw }, raw);
    return signal({ kind: 'raise_budget', raise: parsed.data, via: 'signal' }, raw);
  });
  setHandler(raiseBudgetUpdate, (raw) => update({ kind: 'raise_budget', raise: RaiseBudgetSchema.parse(raw), via: 'update' }, raw), {
    validator: (raw: unknown) => {
      open();
      const parsed = RaiseBudgetSchema.safeParse(raw);
      if (!parsed.success) throw refused(`Malformed raiseBudget: ${malformed(parsed.error.issues)} (expected { maxUsd?, maxTokens?, approver?, signature?, expiresAt? })`);
      const now = state();
      const route = now && routeRaise(now, parsed.data, env());
      if (route && 'refusal' in route) throw refused(route.refusal);
    },
  });

  setHandler(userReplySignal, (raw: unknown) => {
    const parsed = UserReplySchema.safeParse(raw);
    if (!parsed.success) return signal({ kind: 'malformed', ignoredAs: 'userReply', reason: 'malformed reply payload: expected { "text": "..." }', payload: raw }, raw);
    return signal({ kind: 'reply', reply: parsed.data, via: 'signal' }, raw);
  });
  setHandler(submitReplyUpdate, (raw) => update({ kind: 'reply', reply: UserReplySchema.parse(raw), via: 'update' }, raw), {
    validator: (raw: unknown) => {
      open();
      const parsed = UserReplySchema.safeParse(raw);
      if (!parsed.success) throw refused('Malformed reply: expected { "text": "..." }');
      const now = state();
      const route = now && routeReply(now, parsed.data, env());
      if (route && 'refusal' in route) throw refused(route.refusal);
    },
  });

  setHandler(childStatusSignal, (raw: unknown) => {
    const parsed = ChildStatusSchema.safeParse(raw);
    if (!parsed.success) return signal({ kind: 'malformed', ignoredAs: 'childStatus', reason: `malformed childStatus payload: ${malformed(parsed.error.issues)}`, payload: raw }, raw);
    return signal({ kind: 'child_status', workflowId: parsed.data.workflowId, waiting: parsed.data.waiting }, raw);
  });

  setHandler(userMessageSignal, (raw: unknown) => {
    const parsed = FollowUpSchema.safeParse(raw);
    if (!parsed.success) return signal({ kind: 'malformed', ignoredAs: 'userMessage', reason: 'malformed message: expected { "text": "..." }', payload: raw }, raw);
    return signal({ kind: 'follow_up', message: parsed.data, via: 'signal' }, raw);
  });
  // Answers once the agent's turn on the message has started (it may wait behind the current turn).
  setHandler(sendMessageUpdate, (raw) => update({ kind: 'follow_up', message: FollowUpSchema.parse(raw), via: 'update' }, raw), {
    validator: (raw: unknown) => {
      open();
      const parsed = FollowUpSchema.safeParse(raw);
      if (!parsed.success) throw refused('Malformed message: expected { "text": "..." }');
      const now = state();
      const refusal = now && followUpRefusal(now, parsed.data, { ...env(), steering: options.steering });
      if (refusal) throw refused(refusal);
    },
  });

  setHandler(closeSignal, () => signal({ kind: 'close', via: 'signal' }, {}));
  setHandler(closeThreadUpdate, () => update({ kind: 'close', via: 'update' }, {}), {
    validator: () => {
      open();
      const now = state();
      const refusal = now && closeRefusal(now);
      if (refusal) throw refused(refusal);
    },
  });
}
