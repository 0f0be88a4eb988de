import type { RunState } from './run-state';
import type { TransitionContext } from './transition-context';
import type { CoreSlice } from './state/core';
import type { ThreadSlice } from './state/thread';

/**
 * Steering a run that is not a thread: a person's message sent while the agent works (or while a call
 * waits for approval) waits in `thread.inbox` (unused by plain runs otherwise, so the checkpoint keeps
 * its shape) and reaches the model at its next request, after the tool results of the turn in flight.
 * A thread keeps its own rule: a message waits for the current turn's completion (on-thread.ts).
 */

/** The line that tells the model the text comes from a person mid-run, not from a tool or the task. */
export function steeringNote(text: string, sender: string | undefined): string {
  const who = sender ? `${sender} (a person)` : 'A person';
  return `[Message from ${who}, sent while you were working. It is not a tool result; take it into account from now on.]\n${text}`;
}

/** Queues the message; it decides nothing (a parked call stays parked). Returns a refusal, or undefined. */
export function queueSteering(state: Pick<CoreSlice, 'outcome'> & ThreadSlice, text: string, sender: string | undefined): string | undefined {
  if (state.outcome) return 'the run has ended';
  if (sender !== undefined || state.thread.inboxFrom !== undefined) {
    state.thread.inboxFrom = [...(state.thread.inboxFrom ?? state.thread.inbox.map(() => '')), sender ?? ''];
  }
  state.thread.inbox.push(text);
  return undefined;
}

/**
 * Hands the queued messages to the model request about to start. They join the last user message (the
 * turn's tool results, or the nudge) when the model activity's store does not hold it yet, so roles keep
 * alternating; otherwise they go as a user message of their own.
 */
export function deliverSteering(state: RunState, ctx: TransitionContext): void {
  if (state.input.followUps || state.thread.inbox.length === 0) return;
  const texts = state.thread.inbox.splice(0);
  const senders = state.thread.inboxFrom?.splice(0) ?? [];
  const blocks = texts.map((text, i) => ({ type: 'text' as const, text: steeringNote(text, senders[i] || undefined) }));
  const lastIndex = state.messages.length - 1;
  const last = state.messages[lastIndex];
  if (last && last.role === 'user' && lastIndex >= state.conversation.syncedCount) {
    last.content = typeof last.content === 'string' ? [{ type: 'text', text: last.content }, ...blocks] : [...last.content, ...blocks];
  } else {
    state.messages.push({ role: 'user', content: blocks });
  }
  texts.forEach((text, i) => ctx.emit(state, 'messageReceived', { text: text.slice(0, 200) }, `steer-${state.iteration}-${i}`));
}

/**
 * A plain run that completes with messages still queued does not end: the completion is set aside so
 * the model reads them at its next request and finishes again when it is done.
 */
export function steeringHoldsCompletion(state: RunState): boolean {
  if (state.input.followUps || state.thread.inbox.length === 0 || !state.completion) return false;
  state.completion = undefined;
  state.output = undefined;
  state.guardrailsChecked.output = false;
  return true;
}

/**
 * The warning of a plain run that ended with steering messages still queued (at its iteration cap,
 * typically: the last turn ran, and there was no next model request to take them). They are not lost:
 * they stay in the checkpoint's inbox, and `agentctl resume` hands them to the resumed run's first
 * model request. Derived from the state rather than stored, so a resumed run does not inherit it.
 */
export function undeliveredSteeringWarning(state: RunState): string | undefined {
  const queued = state.thread.inbox.length;
  if (state.input.followUps || !state.outcome || queued === 0) return undefined;
  const ended = state.outcome.kind === 'max_iterations' ? `it reached its iteration cap (${state.input.maxIterations})` : `it ended (${state.outcome.kind})`;
  return `${queued} message(s) sent to the run while it worked were not delivered: ${ended} before its next model request. They are kept; \`agentctl resume ${state.workflowId}\` delivers them at the resumed run's first model request.`;
}

/** The run's warnings for its status and result: the stored ones, and undelivered messages. */
export function runWarnings(state: RunState): string[] {
  const undelivered = undeliveredSteeringWarning(state);
  return undelivered ? [...state.warnings, undelivered] : state.warnings;
}
