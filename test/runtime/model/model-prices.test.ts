import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_PRICES, estimateCost, loadModelPrices, warnUnpricedOnce } from '../../../src/runtime/model/model-prices';
import { loadAgentConfig } from '../../../src/runtime/config/load-agent-config';
import { modelIdForTier, ModelTierSchema } from '../../../src/contract/model-tiers';
import { runCost } from '../../../src/console/runs/run-detail';
import { runStatus } from '../../support/status-factory';

const usage = (inputTokens: number, outputTokens: number, cacheCreationInputTokens = 0, cacheReadInputTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheCreationInputTokens,
  cacheReadInputTokens,
});

function pricesFile(content: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'prices-')), 'prices.json');
  writeFileSync(file, content);
  return file;
}

describe('model prices', () => {
  it('prices input, output, cache writes at 1.25x input and cache reads at 0.1x input, per million tokens', () => {
    const prices = loadModelPrices(undefined);
    // claude-sonnet-5-5: $3 in, $15 out (estimates), so $3.75 per million cache writes, $0.30 reads.
    const cost = estimateCost(usage(1_000_000, 100_000, 200_000, 2_000_000), 'claude-sonnet-5-5', prices);
    expect(cost).toEqual({ model: 'claude-sonnet-5-5', usd: expect.closeTo(3 + 1.5 + 0.75 + 0.6, 10) });
    expect(estimateCost(usage(0, 0), 'claude-sonnet-5-5', prices)).toEqual({ model: 'claude-sonnet-5-5', usd: 0 });
  });

  it('has a default price for the default model of every tier', () => {
    for (const tier of ModelTierSchema.options) expect(DEFAULT_MODEL_PRICES[modelIdForTier(tier, {})], tier).toBeDefined();
  });

  it('has a price for every model id the shipped examples name', () => {
    const config = loadAgentConfig(path.join(__dirname, '..', '..', '..', 'examples', 'agents.yaml'));
    const ids = config.agents.flatMap((a) => (a.model ? [a.model] : []));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(DEFAULT_MODEL_PRICES[id], id).toBeDefined();
  });

  it('prices thinking as the output it is part of, and adds web searches per request', () => {
    const prices = loadModelPrices(undefined);
    const thinking = { ...usage(0, 1_000_000), thinkingTokens: 900_000 };
    expect(estimateCost(thinking, 'claude-sonnet-5-5', prices)).toEqual({ model: 'claude-sonnet-5-5', usd: expect.closeTo(15, 10) });
    const searched = { ...usage(0, 0), serverToolUse: { web_search_requests: 3, web_fetch_requests: 2 } };
    expect(estimateCost(searched, 'claude-sonnet-5-5', prices)).toEqual({ model: 'claude-sonnet-5-5', usd: expect.closeTo(0.03, 10) });
  });

  it('warns once per model id it has no price for', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    const prices = loadModelPrices(undefined);
    estimateCost(usage(1, 1), 'claude-unpriced-1', prices, warn);
    estimateCost(usage(1, 1), 'claude-unpriced-1', prices, warn);
    warnUnpricedOnce('claude-unpriced-2', warn);
    expect(warnings).toEqual([expect.stringContaining('No price is known for model claude-unpriced-1'), expect.stringContaining('claude-unpriced-2')]);
  });

  it('says the cost is unknown for a model without a price, instead of guessing', () => {
    expect(estimateCost(usage(10, 10), 'some-other-model', loadModelPrices(undefined))).toEqual({ model: 'some-other-model', unknown: 'no price for some-other-model' });
  });

  it('takes prices from AGENT_MODEL_PRICES_FILE over the defaults, with cache prices given or derived', () => {
    const file = pricesFile(JSON.stringify({ 'claude-sonnet-5-5': { input: 2, output: 10, cacheRead: 0.5 }, 'my-model': { input: 1, output: 2, cacheWrite: 4 } }));
    const prices = loadModelPrices(file);
    expect(prices.get('claude-sonnet-5-5')).toEqual({ input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.5 });
    expect(prices.get('my-model')).toEqual({ input: 1, output: 2, cacheWrite: 4, cacheRead: 0.1 });
    expect(prices.get('claude-haiku-5-5')).toEqual({ input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 });
    expect(estimateCost(usage(1_000_000, 1_000_000, 1_000_000, 1_000_000), 'my-model', prices)).toEqual({ model: 'my-model', usd: expect.closeTo(7.1, 10) });
  });

  it('refuses a prices file that is missing, not JSON, or not prices, saying what is wrong and what to do', () => {
    expect(() => loadModelPrices('/nonexistent/prices.json')).toThrow(/AGENT_MODEL_PRICES_FILE=\/nonexistent\/prices.json cannot be read: .*unset AGENT_MODEL_PRICES_FILE/s);
    expect(() => loadModelPrices(pricesFile('{ nope'))).toThrow(/is not valid JSON: .*Fix it, or unset AGENT_MODEL_PRICES_FILE/s);
    expect(() => loadModelPrices(pricesFile(JSON.stringify({ 'm': { input: -1, output: 'cheap' } })))).toThrow(/must map model ids to USD per million tokens.*- m\.input: .*- m\.output: /s);
    expect(() => loadModelPrices(pricesFile(JSON.stringify({ m: { input: 1, output: 1, extra: 2 } })))).toThrow(/ModelPricesError|must map model ids/);
    expect(() => loadModelPrices(pricesFile('[1, 2]'))).toThrow(/must map model ids/);
  });

  it('prices a run at the model of its tier, and says so when the tier has no model or the model no price', () => {
    const pricing = { prices: loadModelPrices(undefined), models: { balanced: 'claude-sonnet-5-5', powerful: 'unpriced-model' } };
    expect(runCost(runStatus({ modelTier: 'balanced', usage: usage(1_000_000, 0) }), pricing)).toEqual({ model: 'claude-sonnet-5-5', usd: 3 });
    expect(runCost(runStatus({ modelTier: 'powerful', usage: usage(1, 1) }), pricing)).toEqual({ model: 'unpriced-model', unknown: 'no price for unpriced-model' });
    expect(runCost(runStatus({ modelTier: 'fast' }), pricing)).toEqual({ model: 'fast', unknown: 'no model id for tier fast' });
  });
});
