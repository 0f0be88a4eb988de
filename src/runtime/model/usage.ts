import type Anthropic from '@anthropic-ai/sdk';
import type { TokenUsage } from '../../contract/messages';

/**
 * The API's usage as the run counts it. Thinking tokens are already inside `output_tokens` (they are
 * billed as output); `thinkingTokens` says how many of them were thinking. Server tool requests
 * (`server_tool_use.web_search_requests`, ...) are billed per request, apart from tokens, so they are
 * kept by the API's own names. Both appear only when the API reported them.
 */
export function usageFrom(usage: Anthropic.Usage): TokenUsage {
  const counted: TokenUsage = {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheReadInputTokens: usage.cache_read_input_tokens ?? 0,
    cacheCreationInputTokens: usage.cache_creation_input_tokens ?? 0,
  };
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') counted.thinkingTokens = thinking;
  const requests = Object.entries(usage.server_tool_use ?? {}).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0);
  if (requests.length > 0) counted.serverToolUse = Object.fromEntries(requests);
  return counted;
}
