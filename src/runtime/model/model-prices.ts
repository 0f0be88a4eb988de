// What a run's tokens cost, as an estimate: USD per million tokens per model id. The defaults are
// list-price ESTIMATES written into this file, not read from Anthropic, and they go stale; a
// deployment states its own with a JSON file named by AGENT_MODEL_PRICES_FILE. A model with no price
// has no cost: callers show "cost unknown", never a made-up number.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeZodError } from '../../contract/describe-zod-error';
import type { TokenUsage } from '../../contract/messages';
import { DurableAgentError } from '../../contract/durable-agent-error';
import { costOfUsage, SERVER_TOOL_PRICES, type ModelPrice } from '../../core/cost/usage-cost';

export { SERVER_TOOL_PRICES, type ModelPrice };

export const MODEL_PRICES_FILE_ENV = 'AGENT_MODEL_PRICES_FILE';

/** Cache writes cost this many times the input price, unless the price says otherwise. */
export const CACHE_WRITE_FACTOR = 1.25;
/** Cache reads cost this many times the input price, unless the price says otherwise. */
export const CACHE_READ_FACTOR = 0.1;

const usdPerMillion = z.number().finite().nonnegative();
const PriceSchema = z.object({ input: usdPerMillion, output: usdPerMillion, cacheWrite: usdPerMillion.optional(), cacheRead: usdPerMillion.optional() }).strict();
const PricesFileSchema = z.record(z.string().min(1), PriceSchema);
export type ModelPriceInput = z.infer<typeof PriceSchema>;

/**
 * List-price estimates in USD per million tokens (input / output), by model id. The tier defaults
 * of model-tiers.ts (the 5-5 ids) are priced as their family's latest published list price (Haiku
 * $1/$5, Sonnet $3/$15, Opus $5/$25); that is an assumption, not a quote. Check
 * https://www.anthropic.com/pricing and override with AGENT_MODEL_PRICES_FILE.
 */
export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPriceInput>> = {
  'claude-haiku-5-5': { input: 1, output: 5 },
  'claude-sonnet-5-5': { input: 3, output: 15 },
  'claude-opus-5-5': { input: 5, output: 25 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  // The ids of the installed SDK's model list whose family price is published (same assumption as above).
  'claude-sonnet-5': { input: 3, output: 15 },
  'claude-opus-5': { input: 5, output: 25 },
  'claude-opus-4-8': { input: 5, output: 25 },
  'claude-opus-4-7': { input: 5, output: 25 },
  'claude-opus-4-6': { input: 5, output: 25 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
  'claude-haiku-4-5-20251001': { input: 1, output: 5 },
  'claude-sonnet-4-5-20250929': { input: 3, output: 15 },
  'claude-opus-4-5-20251101': { input: 5, output: 25 },
};

/** The prices file is missing, not JSON, or not a map of model id to prices. */
export class ModelPricesError extends DurableAgentError {
  override readonly name = 'ModelPricesError';
  readonly code = 'MODEL_PRICES_INVALID';
  readonly retryable = false;
}

export type ModelPrices = ReadonlyMap<string, ModelPrice>;

/** A price with the cache prices filled in from the input price where not given. */
export function fullPrice(price: ModelPriceInput): ModelPrice {
  return {
    input: price.input,
    output: price.output,
    cacheWrite: price.cacheWrite ?? price.input * CACHE_WRITE_FACTOR,
    cacheRead: price.cacheRead ?? price.input * CACHE_READ_FACTOR,
  };
}

/**
 * The default prices, overridden model by model by the file `AGENT_MODEL_PRICES_FILE` names (JSON:
 * `{ "<model id>": { "input": 3, "output": 15, "cacheWrite"?: 3.75, "cacheRead"?: 0.3 } }`).
 * Throws ModelPricesError, naming the file and what is wrong with it.
 */
export function loadModelPrices(file: string | undefined): ModelPrices {
  const prices = new Map(Object.entries(DEFAULT_MODEL_PRICES).map(([model, price]) => [model, fullPrice(price)]));
  if (!file) return prices;
  const fix = `Fix it, or unset ${MODEL_PRICES_FILE_ENV} to use the built-in estimates.`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ModelPricesError(`${MODEL_PRICES_FILE_ENV}=${file} cannot be read: ${(error as Error).message}. ${fix}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelPricesError(`${MODEL_PRICES_FILE_ENV}=${file} is not valid JSON: ${(error as Error).message}. ${fix}`);
  }
  const parsed = PricesFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new ModelPricesError(
      `${MODEL_PRICES_FILE_ENV}=${file} must map model ids to USD per million tokens, e.g. {"claude-sonnet-5-5": {"input": 3, "output": 15}} (cacheWrite and cacheRead optional):\n${describeZodError(parsed.error)}\n${fix}`,
    );
  }
  for (const [model, price] of Object.entries(parsed.data)) prices.set(model, fullPrice(price));
  return prices;
}

export type CostEstimate = { model: string; usd: number } | { model: string; unknown: string };

const warnedUnpriced = new Set<string>();

/**
 * Says once per process that `model` has no price, so a deployment on a newer id learns why its costs
 * read "unknown" without the log repeating it for every run.
 */
export function warnUnpricedOnce(model: string, warn: (message: string) => void = (m) => console.warn(m)): void {
  if (warnedUnpriced.has(model)) return;
  warnedUnpriced.add(model);
  warn(`No price is known for model ${model}; its cost shows as unknown. Add it to the file ${MODEL_PRICES_FILE_ENV} names.`);
}

/**
 * The estimated cost of `usage` at `model`'s price, or why there is none. Thinking tokens are part of
 * the output tokens (billed as output); server tool requests are added at SERVER_TOOL_PRICES.
 */
export function estimateCost(usage: TokenUsage, model: string, prices: ModelPrices, warn?: (message: string) => void): CostEstimate {
  const price = prices.get(model);
  if (!price) {
    warnUnpricedOnce(model, warn);
    return { model, unknown: `no price for ${model}` };
  }
  return { model, usd: costOfUsage(usage, price) };
}
