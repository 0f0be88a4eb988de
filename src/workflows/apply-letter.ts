import { getExternalWorkflowHandle, isCancellation } from '@temporalio/workflow';
import type { FollowUp, UserReply } from '../contract/approval-decision';
import { raiseBudgetSignal, userReplySignal } from '../contract/agent-run-api';
import type { SetMode } from '../contract/permission-mode';
import { checkChildReport } from '../core/machine/child-reports';
import { closeRefusal, followUpRefusal, modeRefusal } from '../core/machine/message-rules';
import { routeReply } from '../core/machine/message-routes';
import { routeRaise } from '../core/machine/budget-rules';
import type { RaiseBudget } from '../contract/budget';
import { applyBatch, applyDecision } from './apply-decisions';
import type { LetterContext, Settle } from './letter-context';
import type { Letter, Message } from './mailbox';
import { budgetLimits, budgetText, raiseAuditEntry } from './raise-audit';
import { noteSignatures } from './signed-once';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

const payloadText = (payload: unknown): string => {
  try {
    return JSON.stringify(payload) ?? String(payload);
  } catch {
    return String(payload);
  }
};

/** The `ignored` kind a refused signal of this message is recorded under. */
const IGNORED_AS: Record<Message['kind'], string> = {
  decision: 'approval',
  decisions: 'approval',
  mode: 'mode',
  raise_budget: 'raiseBudget',
  reply: 'userReply',
  follow_up: 'userMessage',
  close: 'close',
  child_status: 'childStatus',
  malformed: 'malformed',
};

/** How a message came: updates can be answered; a signal's refusal is recorded instead (malformed payloads and child reports are signals). */
const viaOf = (message: Message): 'signal' | 'update' => {
  if ('via' in message) return message.via;
  return message.kind === 'malformed' || message.kind === 'child_status' ? 'signal' : 'update';
};

/**
 * Refuses a letter: the handler's answer, and for a signal (which cannot answer) a record in
 * `ignored` that says why, as the loop applies it like any other event.
 */
export function refuseLetter(letter: Letter, ctx: LetterContext, reason: string): void {
  letter.answer({ refused: reason });
  if (viaOf(letter.message) !== 'signal') return;
  const kind = letter.message.kind === 'malformed' ? letter.message.ignoredAs : IGNORED_AS[letter.message.kind];
  ctx.driver.dispatch({ type: 'ignored', kind, reason, payload: payloadText(letter.payload) });
}

/**
 * Applies one letter and answers it: the loop's part of every message handler. Whatever goes wrong
 * on the way (a sub-agent's run that ended, an activity that failed) becomes the letter's refusal, so
 * a message never fails the run; a cancellation is answered too, then goes on to end the run.
 */
export async function applyLetter(letter: Letter, ctx: LetterContext): Promise<void> {
  const via = viaOf(letter.message);
  // Signals carry reasons in the lower case of the records the machine writes itself.
  let settled = false;
  let committed: string | undefined;
  const settle: Settle = {
    applied: (message) => {
      settled = true;
      letter.answer({ applied: true, message });
    },
    refuse: (reason) => {
      if (settled) return;
      settled = true;
      refuseLetter(letter, ctx, via === 'signal' && letter.message.kind !== 'decision' ? lowerFirst(reason) : reason);
    },
    committed: (message) => {
      committed = message;
    },
  };
  try {
    await apply(letter, ctx, settle);
  } catch (error) {
    const cancelled = isCancellation(error);
    // Applied before it failed (its audit write was cancelled or failed): the answer says so. Its line
    // is on disk before the answer: `endRun` writes it and then answers; otherwise the next flush does.
    if (committed !== undefined && !settled && ctx.runFeatures.appliedAtCancel) {
      settled = true;
      if (cancelled) {
        ctx.mailbox.hold(letter, committed);
        throw error;
      }
      letter.answer({ applied: true, message: `${committed} (its audit line is written with the next: ${errorText(error)})` });
      return;
    }
    settle.refuse(cancelled ? 'The run was cancelled before this could be applied' : `It could not be applied: ${errorText(error)}`);
    if (cancelled) throw error;
  }
}

async function apply(letter: Letter, ctx: LetterContext, settle: Settle): Promise<void> {
  const message = letter.message;
  switch (message.kind) {
    case 'decision':
      return applyDecision(message.decision, message.via, ctx, settle);
    case 'decisions':
      return applyBatch(message.decisions, ctx, settle);
    case 'mode':
      return applyMode(message.change, ctx, settle);
    case 'raise_budget':
      return applyRaise(message.raise, message.via, ctx, settle);
    case 'reply':
      return applyReply(message.reply, message.via, ctx, settle);
    case 'follow_up':
      return applyFollowUp(message.message, letter, ctx, settle);
    case 'close':
      return applyClose(ctx, settle);
    case 'child_status': {
      if (ctx.options.approvalChannelII) {
        const check = checkChildReport(ctx.driver.state, message.workflowId, message.waiting);
        if ('refusal' in check) return settle.refuse(check.refusal);
        if ('drop' in check) return settle.applied('noted');
      }
      // Published at once by the loop: it may be waiting on the child run itself and not look again for a while.
      ctx.driver.dispatch({ type: 'child_waiting', workflowId: message.workflowId, waiting: message.waiting });
      return settle.applied('noted');
    }
    case 'malformed':
      return settle.refuse(message.reason);
  }
}

async function applyMode(change: SetMode, ctx: LetterContext, settle: Settle): Promise<void> {
  const { driver } = ctx;
  const refusal = modeRefusal(driver.state, change);
  if (refusal) return settle.refuse(refusal);
  const from = driver.state.mode;
  driver.dispatch({ type: 'mode_set', mode: change.mode, by: change.by, reason: change.reason });
  const applied = from === change.mode ? `the run was already in ${change.mode} mode (recorded again)` : `mode switched from ${from} to ${change.mode} for the rest of the run`;
  settle.committed(applied);
  await driver.flushAudit();
  settle.applied(applied);
}

/** A budget raise goes to the run that waits for it: this one, or a sub-agent's run, forwarded whole (issue 34). */
async function applyRaise(raise: RaiseBudget, via: 'signal' | 'update', ctx: LetterContext, settle: Settle): Promise<void> {
  const route = routeRaise(ctx.driver.state, raise, ctx.signingEnv());
  if ('refusal' in route) return settle.refuse(route.refusal);
  if ('forwardTo' in route) {
    try {
      await getExternalWorkflowHandle(route.forwardTo).signal(raiseBudgetSignal, raise);
    } catch (error) {
      if (isCancellation(error)) throw error;
      return settle.refuse(`The raise could not be forwarded to ${route.forwardTo}, the sub-agent run that waits for it: it no longer takes signals (${errorText(error)})`);
    }
    return settle.applied(`raise forwarded to ${route.forwardTo}, the sub-agent run that waits for it`);
  }
  const from = budgetLimits(ctx.driver.state.budget);
  ctx.driver.dispatch({ type: 'budget_raised', maxUsd: raise.maxUsd, maxTokens: raise.maxTokens, by: raise.approver });
  const applied = `budget raised to ${budgetText(ctx.driver.state.budget)}`;
  if (!ctx.runFeatures.accountableRaises) return settle.applied(applied);
  noteSignatures(ctx, [raise]);
  // Audit before action: the line is on disk before the answer and before the run's next model call.
  ctx.driver.audit(raiseAuditEntry(ctx.driver.state, raise, from, via));
  settle.committed(applied);
  await ctx.driver.flushAudit();
  settle.applied(applied);
}

/** A reply goes to the run that asked: this one (it checks who answers), or a sub-agent's run, forwarded whole. */
async function applyReply(reply: UserReply, via: 'signal' | 'update', ctx: LetterContext, settle: Settle): Promise<void> {
  const route = routeReply(ctx.driver.state, reply, ctx.signingEnv());
  if ('refusal' in route) return settle.refuse(route.refusal);
  if ('forwardTo' in route) {
    try {
      await getExternalWorkflowHandle(route.forwardTo).signal(userReplySignal, reply);
    } catch (error) {
      if (isCancellation(error)) throw error;
      return settle.refuse(`The reply could not be forwarded to ${route.forwardTo}, the sub-agent run that asked: it no longer takes signals (${errorText(error)})`);
    }
    return settle.applied(`reply forwarded to ${route.forwardTo}, the sub-agent run that asked`);
  }
  ctx.driver.dispatch({ type: 'reply', text: reply.text, via });
  noteSignatures(ctx, [reply]);
  settle.applied('reply delivered to the agent');
}

/**
 * A follow-up: a working run that is not a thread takes it as steering for its next model request;
 * a thread starts its next turn with it, or queues it behind the current turn. An update on a queued
 * message is answered when the agent takes the message up (see Deliveries).
 */
function applyFollowUp(message: FollowUp, letter: Letter, ctx: LetterContext, settle: Settle): void {
  const { driver, deliveries, options } = ctx;
  const refusal = followUpRefusal(driver.state, message, { ...ctx.signingEnv(), steering: options.steering });
  if (refusal) return settle.refuse(refusal);
  const steer = options.steering && !driver.state.input.followUps;
  const before = driver.state.thread.inbox.length;
  driver.dispatch({ type: 'user_message', text: message.text, sender: message.sender, ...(steer ? { steer: true } : {}) });
  noteSignatures(ctx, [message]);
  if (steer) {
    deliveries.queued(before, driver.state);
    return settle.applied('message queued; the model reads it at its next request, after the results of the calls in flight');
  }
  const waits = viaOf(letter.message) === 'update' ? letter.answer : undefined;
  if (!deliveries.queued(before, driver.state, waits)) return settle.applied('message delivered; the agent is working on it');
  if (!waits) settle.applied('message queued; the agent takes it up after the current turn');
}

function applyClose(ctx: LetterContext, settle: Settle): void {
  const { driver } = ctx;
  const refusal = closeRefusal(driver.state);
  if (refusal) return settle.refuse(refusal);
  driver.dispatch({ type: 'close_requested' });
  settle.applied(driver.state.outcome ? 'thread closed' : 'the thread closes when the agent finishes its current turn');
}
