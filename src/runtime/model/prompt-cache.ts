import type Anthropic from '@anthropic-ai/sdk';

/**
 * Prompt caching (`AGENT_PROMPT_CACHE`): `5m` (the default; `on` means the same) caches for five
 * minutes, refreshed on every hit; `1h` for an hour (writes cost 2× instead of 1.25×, worth it when
 * runs wait on people); `off` sends no breakpoints. Parsed once at start with the other settings
 * (config/worker-settings.ts, `limits.promptCache`), where a value that is none of these is refused.
 */
export type PromptCacheMode = 'off' | '5m' | '1h';

export interface ModelRequestParts {
  system: string;
  tools: Anthropic.Tool[];
  messages: Anthropic.MessageParam[];
}

export interface CachedRequestParts {
  system: string | Anthropic.TextBlockParam[];
  tools: Anthropic.Tool[];
  messages: Anthropic.MessageParam[];
}

type Block = Anthropic.ContentBlockParam;

/**
 * The tool each cache-marked copy was made from. The copy differs from it only by its top-level
 * `cache_control`, which a request's fingerprint leaves out, so the fingerprint digests the original,
 * which the registry hands out again on every call, once (request-fingerprint.ts).
 */
const markedFrom = new WeakMap<object, object>();

/** The tool a cache-marked copy was made from, or the tool itself when it is no such copy. */
export function unmarkedTool<T extends object>(tool: T): T {
  return (markedFrom.get(tool) as T | undefined) ?? tool;
}

function markTool(tool: Anthropic.Tool, cacheControl: Anthropic.CacheControlEphemeral): Anthropic.Tool {
  const marked = { ...tool, cache_control: cacheControl };
  markedFrom.set(marked, tool);
  return marked;
}

/** The message with `cache_control` on its last block (a string becomes one text block to carry it). */
function markLastBlock(message: Anthropic.MessageParam, cacheControl: Anthropic.CacheControlEphemeral): Anthropic.MessageParam {
  const blocks: Block[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
  const last = blocks.at(-1);
  if (!last || (last.type === 'text' && last.text === '')) return message;
  // The API refuses cache_control on thinking blocks, and they must come back unchanged anyway.
  if (last.type === 'thinking' || last.type === 'redacted_thinking') return message;
  blocks[blocks.length - 1] = { ...last, cache_control: cacheControl } as Block;
  return { ...message, content: blocks } as Anthropic.MessageParam;
}

/**
 * Adds prompt-caching breakpoints, at most four as the API allows. The prefix order is tools →
 * system → messages, and a breakpoint caches everything before it, so:
 * 1. the last tool: the tool list (fixed for a run);
 * 2. the system prompt: tools + system;
 * 3. the user message that ended the previous request: where that request wrote its cache, so this
 *    one reads it even when the new turn adds more blocks than the API looks back over (about 20);
 * 4. the last message: this request writes the prefix the next one reads.
 * The conversation only grows at its end between turns, so each turn reads the previous turn's prefix;
 * only a compaction (which rewrites the first messages) changes it. Nothing here changes what is
 * stored or sent to the workflow: the marks are added to the outgoing request alone.
 */
export function withCacheBreakpoints(parts: ModelRequestParts, mode: PromptCacheMode): CachedRequestParts {
  if (mode === 'off') return parts;
  const cacheControl: Anthropic.CacheControlEphemeral = mode === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  const tools = parts.tools.map((tool, i) => (i === parts.tools.length - 1 ? markTool(tool, cacheControl) : tool));
  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: parts.system, cache_control: cacheControl }];
  const messages = [...parts.messages];
  const last = messages.length - 1;
  if (last >= 0) messages[last] = markLastBlock(messages[last]!, cacheControl);
  // The previous request ended with the user message two before this one's last (user, assistant, user).
  const previous = last - 2;
  if (previous >= 0 && messages[previous]!.role === 'user') messages[previous] = markLastBlock(messages[previous]!, cacheControl);
  return { system, tools, messages };
}
