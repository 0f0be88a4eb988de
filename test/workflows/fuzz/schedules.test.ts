// A fixed set of fuzzer seeds, run on every `npm test` (the README explains the fuzzer; `npm run fuzz`
// runs more). Each seed must keep every invariant. On the code before the fixes of issue 31 (27e1fcd)
// each of these seeds failed, the table below says how; with the fixes (the one-writer code of branch
// `interleave`) they pass. The assertions are strict: to see them fail again on the old code, run
//   npx tsx scripts/fuzz-at.ts 27e1fcd -- --seed 7 --seed 8 --seed 15 --seed 16 --seed 19 --seed 56
// Seed 42 (finding 2 on the old code) is left out while a bug of the fixed code makes it fail at
// random (a decision and a cancel in one task: no audit line; pinned by findings.test.ts, it.fails).
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
const SEEDS: Record<number, string> = {
  7: 'finding 1: setMode sent with the start, and again at a continue-as-new, refused "No registered handler" (no-handler)',
  8: 'finding 1: status throws "The run is starting" and decideApproval is refused "No registered handler" at a continue-as-new (status-answers, no-handler)',
  19: 'findings 1 and 2: status throws "The run is starting" at a link edge (status-answers); a decision applied during a hand-over lost from the next link and decided again (answer-matches-log, state-matches-audit, decided-twice)',
  16: 'finding 3: follow-ups to a working thread; the hand-over waits for the sendMessage handlers forever, every update hangs (stuck, update-answered)',
  15: 'findings 1, 2 and 5: a decision answered "approve applied" that the run ignored as already decided (answer-matches-log), a decision lost at a continue-as-new (state-matches-audit)',
  56: 'finding 6: a quick write tool (local activity) started before its decision\'s audit line was on disk (tool-without-decision), and finding 1 (no-handler)',
};

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
