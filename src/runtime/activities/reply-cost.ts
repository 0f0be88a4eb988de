import { AgentCostUsdKey } from '../../contract/search-attributes';
import type { ModelPrice } from '../../core/cost/usage-cost';
import { DEFAULT_MODEL_PRICES, fullPrice, type ModelPrices } from '../model/model-prices';
import type { ActivityDeps } from './activity-deps';

/** What a model reply tells the run about its cost (issue 34): see CallModelResult. */
export interface ReplyCostFacts {
  /** USD per million tokens of the model that answered; absent when no price is known for it. */
  price?: ModelPrice;
  /** false when this worker found `AgentCostUsd` missing on its namespace and could not register it. */
  costAttribute?: false;
}

const DEFAULTS: ModelPrices = new Map(Object.entries(DEFAULT_MODEL_PRICES).map(([model, price]) => [model, fullPrice(price)]));

/**
 * The price the run's cost estimate uses, and whether the run may publish it. Both travel with every
 * reply, so a run picks up a new prices file or an attribute an administrator created at its next
 * model call, and a replayed history keeps the facts its worker had.
 */
export function replyCostFacts(deps: Pick<ActivityDeps, 'modelPrices' | 'missingSearchAttributes'>, models: readonly string[]): ReplyCostFacts {
  const prices = deps.modelPrices ?? DEFAULTS;
  const price = models.map((model) => prices.get(model)).find((p) => p !== undefined);
  const unindexed = deps.missingSearchAttributes?.includes(AgentCostUsdKey.name) === true;
  return { ...(price ? { price } : {}), ...(unindexed ? { costAttribute: false as const } : {}) };
}
