import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { CallModelResult } from '../activities/call-model';
import { addUsage, type ConversationMessage } from '../conversation/messages';
import { FailureType } from '../errors';
import { model } from './activity-stubs';
import type { RunState } from './run-state';

/** The conversation as the activity should rebuild it: what it already keeps, plus what is new. */
export function conversationRef(state: RunState) {
  const { key, syncedCount, tag } = state.conversation;
  return { key, baseCount: syncedCount, tag, append: state.messages.slice(syncedCount) };
}

function isStoreMiss(error: unknown): boolean {
  return (
    error instanceof ActivityFailure &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === FailureType.ConversationStoreMiss
  );
}

/**
 * Runs `call` with the conversation passed by reference; if the activity's worker does not hold the
 * expected prefix, sends the whole conversation once and goes on. This keeps each model call's input
 * to what changed since the last call, so history grows linearly with the run.
 */
export async function withConversation<T>(state: RunState, call: (ref: ReturnType<typeof conversationRef>) => Promise<T>): Promise<T> {
  try {
    return await call(conversationRef(state));
  } catch (error) {
    if (!isStoreMiss(error)) throw error;
    state.conversation.syncedCount = 0;
    return call(conversationRef(state));
  }
}

/** One model turn. Returns the assistant message, already appended to the conversation. */
export async function modelTurn(state: RunState): Promise<{ message: ConversationMessage; result: CallModelResult }> {
  const result = await withConversation(state, (conversation) =>
    model.callModel.executeWithOptions(
      { summary: `model ${state.agent.modelTier} #${state.iteration}` },
      [{ agent: state.agent.name, iteration: state.iteration, conversation }],
    ),
  );
  state.messages.push(result.message);
  state.conversation.syncedCount = result.storedCount;
  state.conversation.tag = result.storedTag;
  state.usage = addUsage(state.usage, result.usage);
  state.lastPrompt = { chars: result.promptChars, tokens: result.usage.inputTokens };
  return { message: result.message, result };
}
