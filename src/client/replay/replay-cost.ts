import type { TokenUsage } from '../../contract/messages';
import { estimateCost, MODEL_PRICES_FILE_ENV, type ModelPrices } from '../../runtime/model/model-prices';
import type { RecordedRun } from './recorded-run';
import { ModelNotPricedError } from './replay-errors';

/** What the recorded run's model calls used, each at the model it asked for. */
export function recordedUsage(recorded: RecordedRun): { model: string; usage: TokenUsage }[] {
  return recorded.modelCalls.map((call) => ({ model: call.request?.model ?? call.reply.model, usage: call.reply.usage }));
}

/**
 * Refuses, before anything starts, a cost it cannot give: a model with no price (the built-in
 * estimates, or AGENT_MODEL_PRICES_FILE's). `what` says whose model it is.
 */
export function assertPriced(models: Iterable<string>, prices: ModelPrices, what: string): void {
  const unpriced = [...new Set(models)].filter((model) => !prices.has(model));
  if (unpriced.length === 0) return;
  throw new ModelNotPricedError(
    `No price is known for ${unpriced.map((m) => `model ${m}`).join(', ')} (${what}), so the replay's cost cannot be given and nothing was replayed. Add it to the JSON file ${MODEL_PRICES_FILE_ENV} names ({"${unpriced[0]}": {"input": 3, "output": 15}}, USD per million tokens), or replay with --no-cost.`,
  );
}

/** USD of these calls; every model was checked by assertPriced first. */
export function costOf(calls: { model: string; usage: TokenUsage }[], prices: ModelPrices): number {
  return calls.reduce((sum, call) => {
    const estimate = estimateCost(call.usage, call.model, prices, () => undefined);
    return sum + ('usd' in estimate ? estimate.usd : 0);
  }, 0);
}
