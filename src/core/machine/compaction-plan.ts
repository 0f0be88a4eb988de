import { isDraft } from 'immer';
import type { ContentBlock, ConversationMessage } from '../../contract/messages';
import type { RunState } from './run-state';

/** Characters per token assumed before the API has counted a single prompt of this run. */
const DEFAULT_CHARS_PER_TOKEN = 3.5;
/** Share of the compaction target the kept recent turns may fill; the rest is for the summary and new turns. */
const KEEP_SHARE = 0.5;
/** After a compaction, the estimate must grow by this share of the window before the summarizer runs again. */
const REGROWTH_SHARE = 0.1;
/** What is left of a tool output that had to be cut to fit the window. */
const TRUNCATED_KEEP_CHARS = 2_000;

/**
 * JSON characters of each message of a settled state already measured. A settled state is never
 * changed (every change goes through immer's `produce`, which copies what it changes), so a message
 * keeps its identity, and its size, from one transition to the next: measuring the conversation
 * costs one `JSON.stringify` per new message instead of one over the whole conversation per step,
 * which made a run's orchestration quadratic in its length. A draft's messages may still change
 * within its transition, so they are measured afresh (compaction, the only caller with a draft, is rare).
 */
const messageChars = new WeakMap<ConversationMessage, number>();

function charsOfMessage(message: ConversationMessage, settled: boolean): number {
  if (!settled) return JSON.stringify(message).length;
  let chars = messageChars.get(message);
  if (chars === undefined) messageChars.set(message, (chars = JSON.stringify(message).length));
  return chars;
}

/** `JSON.stringify(messages).length`, summed from the messages' own sizes with the brackets and commas. */
function charsOf(messages: readonly ConversationMessage[], settled = false): number {
  let chars = 2 + Math.max(0, messages.length - 1);
  for (const message of messages) chars += charsOfMessage(message, settled);
  return chars;
}

function charsPerToken(state: RunState): number {
  const last = state.lastPrompt;
  return last && last.chars > 0 && last.tokens > 0 ? last.chars / last.tokens : DEFAULT_CHARS_PER_TOKEN;
}

/**
 * Estimated prompt tokens of the next model call: the API's own count of the previous prompt plus the
 * characters added since, converted with the ratio that prompt showed. That calibrates the estimate
 * on this run's actual text (code, prose or JSON tokenize differently) at no extra API call.
 */
export function estimatePromptTokens(state: RunState): number {
  const chars = charsOf(state.messages, !isDraft(state));
  const last = state.lastPrompt;
  if (!last || last.chars === 0 || last.tokens === 0) return Math.ceil(chars / DEFAULT_CHARS_PER_TOKEN);
  return last.tokens + Math.ceil(Math.max(0, chars - last.chars) / charsPerToken(state));
}

/** Indexes of the assistant messages that start turns, oldest first (index 0 is the task). */
function turnStarts(messages: readonly ConversationMessage[]): number[] {
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (i >= 1 && m.role === 'assistant') starts.push(i);
  });
  return starts;
}

/** The first release's split: the start of the `keep`-th last turn (kept for replaying its histories). */
export function compactionSplit(messages: readonly ConversationMessage[], keep: number): number | undefined {
  const starts = turnStarts(messages);
  const at = starts[starts.length - keep];
  return at !== undefined && at > 1 ? at : undefined;
}

export interface CompactionPlan {
  /** Messages before this index are summarized; undefined when only oversized outputs are cut. */
  split?: number;
  estimate: number;
}

/**
 * Whether the next model call needs a smaller prompt, and how. Above `targetShare` of the window, the
 * turns before a tail that fits half the target are summarized away (never more than
 * `keepRecentTurns` turns are kept, never fewer than one); tool outputs in the kept tail that still do
 * not fit are cut (see fitTail). After a compaction the summarizer runs again only once the estimate
 * has grown by a tenth of the window, so a prompt that stays large is not summarized every turn.
 */
export function planCompaction(state: RunState, byTokenBudget: boolean): CompactionPlan | undefined {
  const budget = state.agent.context;
  const target = budget.windowTokens * budget.targetShare;
  const estimate = estimatePromptTokens(state);
  if (estimate <= target) return undefined;
  if (!byTokenBudget) {
    const split = compactionSplit(state.messages, budget.keepRecentTurns);
    return split === undefined ? undefined : { split, estimate };
  }
  const last = state.compactedAt;
  if (last && estimate < last.estimate + budget.windowTokens * REGROWTH_SHARE) return undefined;
  const keepChars = target * KEEP_SHARE * charsPerToken(state);
  const starts = turnStarts(state.messages);
  let split = starts[starts.length - 1];
  for (let i = starts.length - 2, kept = 1; i >= 0 && kept < budget.keepRecentTurns; i -= 1, kept += 1) {
    if (charsOf(state.messages.slice(starts[i]!), !isDraft(state)) > keepChars) break;
    split = starts[i];
  }
  if (split === undefined || split <= 1) {
    // Nothing old enough to summarize: only cutting oversized outputs can help.
    return tailNeedsCut(state, keepChars) ? { estimate } : undefined;
  }
  return { split, estimate };
}

function tailNeedsCut(state: RunState, keepChars: number): boolean {
  return charsOf(state.messages.slice(1), !isDraft(state)) > keepChars;
}

/**
 * Cuts the largest tool outputs of `messages` (longest first) to a head and a note until the whole
 * fits `maxChars`, so a turn holding a huge output still gets under the model's window. Tool calls
 * and their results stay paired; only the text of results shrinks.
 */
export function fitTail(messages: ConversationMessage[], maxChars: number): ConversationMessage[] {
  let total = charsOf(messages);
  if (total <= maxChars) return messages;
  const results: { m: number; b: number; size: number }[] = [];
  messages.forEach((message, m) => {
    if (typeof message.content === 'string') return;
    message.content.forEach((block, b) => {
      if (block.type === 'tool_result' && block.content.length > TRUNCATED_KEEP_CHARS) results.push({ m, b, size: block.content.length });
    });
  });
  results.sort((a, b) => b.size - a.size || a.m - b.m || a.b - b.b);
  const out = messages.map((message) => (typeof message.content === 'string' ? message : { ...message, content: [...message.content] }));
  for (const { m, b, size } of results) {
    if (total <= maxChars) break;
    const content = out[m]!.content as ContentBlock[];
    const block = content[b] as Extract<ContentBlock, { type: 'tool_result' }>;
    const cut = `${block.content.slice(0, TRUNCATED_KEEP_CHARS)}\n[cut to fit the context window: ${size - TRUNCATED_KEEP_CHARS} of ${size} characters removed; repeat the call with a narrower request if you need them]`;
    content[b] = { ...block, content: cut };
    total -= size - cut.length;
  }
  return out;
}

/** The characters the kept tail may take, for `fitTail`. */
export function tailBudgetChars(state: RunState): number {
  const budget = state.agent.context;
  return budget.windowTokens * budget.targetShare * KEEP_SHARE * charsPerToken(state);
}
