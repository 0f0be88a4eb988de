import { addUsage, type TokenUsage } from '../../contract/messages';
import { renderMemory } from './carried-context';
import { estimatePromptTokens, fitTail, tailBudgetChars } from './compaction-plan';
import type { RunState } from './run-state';
import type { TransitionContext } from './transition-context';

/**
 * Replaces the turns before `split` with the summary (when there is one): the task, the task list,
 * the saved key points and the summary lead the conversation, then the kept turns, whose oversized
 * tool outputs are cut to fit. The conversation gets a new store key: the model activity's copy no
 * longer matches, and the compacted conversation is small enough to send whole once.
 */
export function onCompacted(
  state: RunState,
  event: { summary?: string; usage?: TokenUsage; split?: number; estimate: number; fit: boolean },
  ctx: TransitionContext,
): void {
  const before = state.messages.length;
  if (event.usage) state.usage = addUsage(state.usage, event.usage);
  const tail = event.split !== undefined ? state.messages.slice(event.split) : state.messages.slice(1);
  if (event.summary !== undefined) {
    state.conversationSummary = event.summary;
    state.messages = [{ role: 'user', content: `${state.input.task}\n\n${renderMemory(state)}` }, ...(event.fit ? fitTail(tail, tailBudgetChars(state)) : tail)];
  } else {
    state.messages = [state.messages[0]!, ...fitTail(tail, tailBudgetChars(state))];
  }
  state.conversation = {
    key: `${state.workflowId}/g${state.conversation.generation + 1}`,
    generation: state.conversation.generation + 1,
    syncedCount: 0,
  };
  state.lastPrompt = undefined;
  state.compactions += 1;
  state.compacting = false;
  state.compactedAt = { iteration: state.iteration, estimate: estimatePromptTokens(state) };
  ctx.emit(state, 'contextCompacted', { estimatedTokens: event.estimate, messagesBefore: before, messagesAfter: state.messages.length }, String(state.compactions));
}
