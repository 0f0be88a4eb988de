/**
 * The conversation as the Anthropic Messages API sees it, reduced to the blocks this runtime
 * produces. Defined here rather than imported from `@anthropic-ai/sdk` because workflow code must not
 * depend on the SDK package; the shapes are wire-compatible with it.
 */
export interface TextBlock {
  type: 'text';
  text: string;
  /**
   * The sources the API cited for this text (a web search answer's `web_search_result_location`s...),
   * kept exactly as sent and sent back so: their `encrypted_index` is the API's business. Absent when
   * the API cited nothing, so plain text keeps the shape it always had.
   */
  citations?: unknown[];
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  /**
   * Who made the call when it was not the model directly: code the API ran (programmatic tool
   * calling, `{ type: code_execution_…, tool_id }`). Kept as sent, so the result finds its caller.
   */
  caller?: unknown;
  /** For a member of a toolset, the toolset's name, as the API sent it. */
  toolset_name?: string;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/**
 * The model's reasoning, as the API sent it. With thinking on, the API requires every thinking block
 * to come back unchanged (its `signature` verifies it) and first in its assistant turn, so these are
 * stored and resent exactly as received, never rebuilt.
 */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** Reasoning the API encrypted; `data` is opaque and must come back unchanged, like a thinking block. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/**
 * A call of one of the API's server tools (web search, web fetch, code execution). The API ran it
 * itself: the worker never runs it, never asks anyone about it, and only keeps it for the next request.
 * Fields the API adds (`caller`, ...) are kept as they came.
 */
export interface ServerToolUseBlock {
  type: 'server_tool_use';
  id: string;
  name: string;
  input: unknown;
  [field: string]: unknown;
}

/**
 * What a server tool returned (`web_search_tool_result`, `web_fetch_tool_result`,
 * `code_execution_tool_result`, ...), kept verbatim: its content is the API's business.
 */
export interface ServerToolResultBlock {
  type: `${string}_tool_result`;
  tool_use_id: string;
  content: unknown;
  [field: string]: unknown;
}

/** A file the API put into the code execution container (`container_upload`), kept as it came. */
export interface ContainerUploadBlock {
  type: 'container_upload';
  file_id: string;
  [field: string]: unknown;
}

/** The blocks the API sends that this runtime keeps as they are, without reading them. */
export type ApiBlock = ThinkingBlock | RedactedThinkingBlock | ServerToolUseBlock | ServerToolResultBlock | ContainerUploadBlock;

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ApiBlock;

/** The block types a reply may carry that the runtime keeps verbatim (see ApiBlock). */
export function isApiBlock(block: { type: string }): block is ApiBlock {
  const { type } = block;
  if (type === 'thinking' || type === 'redacted_thinking' || type === 'server_tool_use' || type === 'container_upload') return true;
  return type !== 'tool_result' && type.endsWith('_tool_result');
}

export interface ConversationMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** Of `outputTokens`, those spent thinking (billed as output; absent when the API reported none). */
  thinkingTokens?: number;
  /** Server tool requests the API ran and bills apart, by the API's name (`web_search_requests`, ...). */
  serverToolUse?: Record<string, number>;
}

export const emptyUsage = (): TokenUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
});

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
  };
  // The optional counts appear only once some reply had them, so runs without thinking or server
  // tools keep the usage shape (and the status) they always had.
  if (a.thinkingTokens !== undefined || b.thinkingTokens !== undefined) sum.thinkingTokens = (a.thinkingTokens ?? 0) + (b.thinkingTokens ?? 0);
  if (a.serverToolUse || b.serverToolUse) {
    const counts: Record<string, number> = { ...a.serverToolUse };
    for (const [name, n] of Object.entries(b.serverToolUse ?? {})) counts[name] = (counts[name] ?? 0) + n;
    sum.serverToolUse = counts;
  }
  return sum;
}

/** The server tool blocks of a reply: calls the API ran itself (see ServerToolUseBlock). */
export function serverToolUses(message: ConversationMessage): ServerToolUseBlock[] {
  if (typeof message.content === 'string') return [];
  return message.content.filter((b): b is ServerToolUseBlock => b.type === 'server_tool_use');
}

export function toolUses(message: ConversationMessage): ToolUseBlock[] {
  if (typeof message.content === 'string') return [];
  return message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

export function textOf(message: ConversationMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}
