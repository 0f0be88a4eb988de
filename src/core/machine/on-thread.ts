import type { RunState } from './run-state';
import type { TransitionContext } from './transition-context';
import { guardrailsOn } from './on-guardrails';
import { steeringHoldsCompletion } from './on-steer';

/**
 * The agent completed (its turn is closed): once the output guardrails (if any) have passed, the run
 * ends, or, for a thread, reports the completion and waits for the next message (phase `idle`); a
 * message that came in meanwhile starts the next turn at once.
 */
export function concludeCompletion(state: RunState, ctx: TransitionContext): void {
  if (!state.completion || state.outcome || state.turn || state.thread.idleSince) return;
  if (guardrailsOn(state, 'output').length > 0 && !state.guardrailsChecked.output) return;
  if (steeringHoldsCompletion(state)) return;
  if (!state.input.followUps) {
    state.outcome = { kind: 'completed' };
    ctx.emit(state, 'agentEnded', { status: 'completed', completion: state.completion, iterations: state.iteration, usage: state.usage });
    return;
  }
  state.thread.completions.push(state.completion);
  state.guardrailsChecked.output = false;
  state.thread.idleSince = ctx.at;
  if (state.thread.closeRequested) return closeThread(state, ctx);
  const next = state.thread.inbox.shift();
  const from = state.thread.inboxFrom?.shift();
  if (next !== undefined) startMessage(state, next, ctx, from || undefined);
}

function startMessage(state: RunState, text: string, ctx: TransitionContext, sender: string | undefined): void {
  state.messages.push({ role: 'user', content: text });
  if (sender) state.thread.requestedBy = sender;
  else delete state.thread.requestedBy;
  state.thread.idleSince = undefined;
  state.thread.iterationBase = state.iteration;
  state.completion = undefined;
  state.output = undefined;
  ctx.emit(state, 'messageReceived', { text: text.slice(0, 200) }, `msg-${state.thread.completions.length}`);
}

/** A follow-up message: it starts the next turn when the run is idle, and waits its turn otherwise. */
export function onUserMessage(state: RunState, text: string, ctx: TransitionContext, sender?: string): string | undefined {
  if (!state.input.followUps) return 'this run does not take follow-up messages; start it with followUps: true';
  if (state.outcome) return 'the run has ended';
  if (state.thread.idleSince) {
    startMessage(state, text, ctx, sender);
    return undefined;
  }
  // Senders are kept beside the inbox only once someone names one, so older states stay as they were.
  if (sender !== undefined || state.thread.inboxFrom !== undefined) {
    state.thread.inboxFrom = [...(state.thread.inboxFrom ?? state.thread.inbox.map(() => '')), sender ?? ''];
  }
  state.thread.inbox.push(text);
  return undefined;
}

/** Ends a thread: at once when it is idle, otherwise when the agent next completes. */
export function onCloseRequested(state: RunState, ctx: TransitionContext): string | undefined {
  if (!state.input.followUps) return 'this run is not a thread; cancel it to stop it';
  if (state.outcome) return 'the run has ended';
  state.thread.closeRequested = true;
  if (state.thread.idleSince) closeThread(state, ctx);
  return undefined;
}

export function closeThread(state: RunState, ctx: TransitionContext): void {
  if (state.outcome) return;
  state.outcome = { kind: 'completed' };
  ctx.emit(state, 'agentEnded', { status: 'completed', completion: state.completion, completions: state.thread.completions.length, iterations: state.iteration, usage: state.usage });
}
