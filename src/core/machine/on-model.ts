import { addUsage, textOf, toolUses, type ConversationMessage } from '../../contract/messages';
import type { RunEvent } from './run-events';
import type { RunState } from './run-state';
import type { TransitionContext } from './transition-context';
import { recordServerTools } from './server-tools';
import { errorResult, recordCall, toBlock } from './call-records';

/** Sent after a turn without a tool call: such a turn is not completion, and counts toward the cap. */
export const CONTINUE_NUDGE =
  'You replied without calling a tool. If the task is done, call complete_task with a summary and status. ' +
  'Otherwise continue working with the tools, or call need_more_information if you need the user.';

/**
 * Sent after a reply the API paused (`pause_turn`) by executions from before paused turns were sent
 * back as they are (see patches.ts); newer ones add no message, and the next call continues the turn.
 */
export const PAUSE_TURN_NUDGE = 'Continue.';

/** The nudge for an agent whose completion tool is not complete_task: it must name the tool it has. */
export function continueNudgeFor(completionTools: readonly string[]): string {
  const tool = completionTools[0];
  if (tool === undefined || completionTools.includes('complete_task')) return CONTINUE_NUDGE;
  return (
    `You replied without calling a tool. If the task is done, call ${tool}. ` +
    'Otherwise continue working with the tools, or call need_more_information if you need the user.'
  );
}

/** How much of the latest reply's text the state keeps for live followers (RunStatus.modelText). */
export const REPLY_TEXT_CHARS = 4_000;

/** The first wait after a failed model call; it doubles up to the run's `modelRetryMaxSeconds`. */
export const MODEL_RETRY_INITIAL_MS = 1_000;

export function onModelCallStarted(state: RunState, ctx: TransitionContext): void {
  if (state.modelCall) {
    state.modelCall.attempt += 1;
    state.modelCall.nextAttemptAt = undefined;
    return;
  }
  state.iteration += 1;
  state.modelCall = { attempt: 1 };
  ctx.emit(state, 'iterationStarted', {});
}

export function onModelReplied(state: RunState, event: Extract<RunEvent, { type: 'model_replied' }>, ctx: TransitionContext): void {
  // A continued turn replaces the paused one it carries; only its new blocks are new server tool calls.
  const paused = event.continued ? state.messages.pop() : undefined;
  state.messages.push(event.message);
  recordServerTools(state, paused ? newPart(event.message, paused) : event.message, ctx);
  state.conversation.syncedCount = event.storedCount;
  state.conversation.tag = event.storedTag;
  state.usage = addUsage(state.usage, event.usage);
  // With prompt caching the API counts the cached part of the prompt apart; the prompt is all three.
  const { inputTokens, cacheReadInputTokens, cacheCreationInputTokens } = event.usage;
  state.lastPrompt = { chars: event.promptChars, tokens: inputTokens + cacheReadInputTokens + cacheCreationInputTokens };
  state.modelCall = undefined;
  state.lastError = undefined;
  const replyText = textOf(event.message);
  if (replyText) state.lastReplyText = { iteration: state.iteration, text: replyText.slice(-REPLY_TEXT_CHARS), chars: replyText.length };
  const calls = toolUses(event.message);
  if (calls.length === 0) {
    // A paused server tool turn is not a reply without a tool call: the next call sends it back as it
    // is, the API's way to let the model go on (older executions asked it to with a user message).
    if (event.stopReason === 'pause_turn' && !event.pauseNudge) {
      ctx.emit(state, 'iterationCompleted', { completed: false, toolCalls: 0, usage: state.usage });
      return;
    }
    const nudge = event.stopReason === 'pause_turn' ? PAUSE_TURN_NUDGE : continueNudgeFor(state.agent.completionTools);
    state.messages.push({ role: 'user', content: nudge });
    ctx.emit(state, 'iterationCompleted', { completed: false, toolCalls: 0, usage: state.usage });
    return;
  }
  state.turn = {
    iteration: state.iteration,
    calls: calls.map((c) => ({
      id: c.id,
      name: c.name,
      input: c.input,
      analysis: event.analyses?.[c.id],
      outputCheck: event.outputChecks?.[c.id],
      stage: { kind: 'guardrail' },
    })),
    contextText: textOf(event.message) || undefined,
  };
  refuseMisfitArguments(state, event.argumentProblems);
}

/**
 * Calls whose arguments the worker found not to fit their tool's schema (Nexus tools, whose
 * operation the workflow starts itself) are answered with that error at once: no guardrail, rule
 * or person is asked about a call that cannot run, and nothing is started.
 */
function refuseMisfitArguments(state: RunState, problems: Record<string, string> | undefined): void {
  for (const call of state.turn!.calls) {
    const problem = problems && Object.hasOwn(problems, call.id) ? problems[call.id] : undefined;
    if (problem === undefined) continue;
    call.stage = { kind: 'refused', reason: 'invalid arguments' };
    call.result = toBlock(call.id, errorResult(problem));
    recordCall(state, { iteration: state.turn!.iteration, callId: call.id, tool: call.name, input: call.input, outcome: 'error' });
  }
}

/** The blocks `turn` has after those of `paused`, the turn it continued. */
function newPart(turn: ConversationMessage, paused: ConversationMessage): ConversationMessage {
  const before = typeof paused.content === 'string' ? 1 : paused.content.length;
  return { role: 'assistant', content: typeof turn.content === 'string' ? turn.content : turn.content.slice(before) };
}

/**
 * A failed model call. A refused request ends the run; an unavailable API is waited out with no cap
 * on attempts: the wait doubles up to the run's maximum, or is exactly what `retry-after` asked for.
 */
export function onModelFailed(state: RunState, event: Extract<RunEvent, { type: 'model_failed' }>, ctx: TransitionContext): void {
  if (!event.retryable) {
    failRun(state, event.errorType, event.message, ctx);
    return;
  }
  const call = (state.modelCall ??= { attempt: 1 });
  const maxMs = state.input.modelRetryMaxSeconds * 1000;
  const backoff = Math.min(maxMs, MODEL_RETRY_INITIAL_MS * 2 ** Math.min(30, call.attempt - 1));
  const delay = event.retryAfterMs !== undefined ? Math.min(maxMs, event.retryAfterMs) : backoff;
  call.lastError = event.message;
  call.nextAttemptAt = new Date(ctx.now + delay).toISOString();
  state.lastError = event.message;
  ctx.emit(state, 'errorOccurred', { message: event.message, type: event.errorType, retrying: true, attempt: call.attempt, nextAttemptAt: call.nextAttemptAt }, `model-${call.attempt}`);
}

/** Ends the run as failed; the workflow turns the outcome into a non-retryable ApplicationFailure. */
export function failRun(state: RunState, errorType: string, message: string, ctx: TransitionContext): void {
  if (state.outcome) return;
  state.outcome = { kind: 'failed', type: errorType, message };
  state.lastError = message;
  ctx.emit(state, 'errorOccurred', { message, type: errorType });
  ctx.emit(state, 'agentEnded', { status: 'failed', error: message, usage: state.usage });
}
