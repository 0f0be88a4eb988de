import type { ConversationMessage } from '../conversation/messages';
import { addUsage } from '../conversation/messages';
import { model } from './activity-stubs';
import { renderMemory } from './carried-context';
import { emit } from './lifecycle-emitter';
import { withConversation } from './model-turn';
import { setPhase } from './run-display';
import type { RunState } from './run-state';

/** Characters per token assumed before the API has counted a single prompt of this run. */
const DEFAULT_CHARS_PER_TOKEN = 3.5;

const charsOf = (messages: ConversationMessage[]) => JSON.stringify(messages).length;

/**
 * Estimated prompt tokens of the next model call: the API's own count of the previous prompt plus the
 * characters added since, converted with the ratio that prompt showed. That calibrates the estimate
 * on this run's actual text (code, prose or JSON tokenize differently) at no extra API call.
 */
export function estimatePromptTokens(state: RunState): number {
  const chars = charsOf(state.messages);
  const last = state.lastPrompt;
  if (!last || last.chars === 0 || last.tokens === 0) return Math.ceil(chars / DEFAULT_CHARS_PER_TOKEN);
  const ratio = last.chars / last.tokens;
  return last.tokens + Math.ceil(Math.max(0, chars - last.chars) / ratio);
}

/**
 * Where the kept tail of the conversation starts: the start of the `keep`-th last turn. A turn starts
 * with an assistant message and its tool results follow it, so cutting before an assistant message
 * never separates a tool call from its result.
 */
export function compactionSplit(messages: ConversationMessage[], keep: number): number | undefined {
  let seen = 0;
  for (let i = messages.length - 1; i >= 1; i -= 1) {
    if (messages[i]!.role !== 'assistant') continue;
    seen += 1;
    if (seen === keep) return i > 1 ? i : undefined;
  }
  return undefined;
}

/**
 * Keeps the prompt under the agent's budget: above `targetShare` of the window, the turns between
 * the task and the last few are replaced by a summary from a fast-tier model call. The task, the task
 * list, the agent's saved key points and the recent turns stay verbatim.
 */
export async function compactIfNeeded(state: RunState, force = false): Promise<boolean> {
  const budget = state.agent.context;
  const estimate = estimatePromptTokens(state);
  if (!force && estimate <= budget.windowTokens * budget.targetShare) return false;
  const split = compactionSplit(state.messages, budget.keepRecentTurns);
  if (split === undefined) return false;

  setPhase(state, 'compacting');
  const summary = await withConversation(state, (conversation) =>
    model.summarizeConversation.executeWithOptions({ summary: `compact turns 1-${split - 1}` }, [
      // From 0: the first message carries the previous summary, so the new one replaces it.
      { conversation, from: 0, to: split, task: state.input.task },
    ]),
  );
  state.usage = addUsage(state.usage, summary.usage);
  state.conversationSummary = summary.summary;
  const before = state.messages.length;
  const memory = renderMemory(state);
  state.messages = [{ role: 'user', content: `${state.input.task}\n\n${memory}` }, ...state.messages.slice(split)];
  // A new key: the activity's stored copy no longer matches, and the compacted conversation is small.
  state.conversation = {
    key: `${state.workflowId}/g${state.conversation.generation + 1}`,
    generation: state.conversation.generation + 1,
    syncedCount: 0,
  };
  state.lastPrompt = undefined;
  state.compactions += 1;
  emit(state, 'contextCompacted', { estimatedTokens: estimate, messagesBefore: before, messagesAfter: state.messages.length }, String(state.compactions));
  setPhase(state, 'running');
  return true;
}
