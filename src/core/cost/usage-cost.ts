import type { TokenUsage } from '../../contract/messages';

/** USD per million tokens of one model. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/**
 * USD per server tool request, by the usage field the API counts it in. Web search is billed per
 * search ($10 per 1,000, list price, an estimate like the rest); web fetch costs only the tokens of
 * what it fetched, which are already in the input tokens.
 */
export const SERVER_TOOL_PRICES: Readonly<Record<string, number>> = {
  web_search_requests: 0.01,
  web_fetch_requests: 0,
};

/**
 * What `usage` costs at `price`, in USD. Thinking tokens are part of the output tokens (billed as
 * output); server tool requests are added at `requestPrices` (SERVER_TOOL_PRICES unless the caller
 * has the prices the worker priced a run's budget with). Pure, so the workflow computes the run's
 * cost (the `AgentCostUsd` search attribute) and its spend budget the same way the console and the
 * replay lab do.
 */
export function costOfUsage(usage: TokenUsage, price: ModelPrice, requestPrices: Readonly<Record<string, number>> = SERVER_TOOL_PRICES): number {
  const tokens =
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheCreationInputTokens * price.cacheWrite +
      usage.cacheReadInputTokens * price.cacheRead) /
    1_000_000;
  const requests = Object.entries(usage.serverToolUse ?? {}).reduce((sum, [name, n]) => sum + n * (requestPrices[name] ?? 0), 0);
  return tokens + requests;
}

/** A cost as the search attribute and the result carry it: rounded to a millionth of a dollar, so float noise is no change. */
export const roundUsd = (usd: number): number => Math.round(usd * 1_000_000) / 1_000_000;
