// Safe upgrades: every committed history of an earlier release replays against today's workflow code.
// A change that alters the commands an already-running workflow would issue fails here unless it is
// guarded with patched() (see docs/guides/upgrading.md). Fixtures are captured by scripts/capture-histories.ts;
// test/workflows/replay-catches-change.test.ts shows that they catch a change on each path they cover.
import * as path from 'node:path';
import type { WorkflowBundle } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { lifecycleSinks } from '../../src/runtime/lifecycle/lifecycle-sink';
import { bundleAgentWorkflows } from '../support/agent-run-harness';
import { listFixtures, replayedIn, replayFixtures } from '../support/replay-fixtures';

const fixtures = listFixtures();
const release = (fixture: string) => path.dirname(fixture);

describe('replay of saved histories', () => {
  let workflowBundle: WorkflowBundle;
  beforeAll(async () => {
    workflowBundle = await bundleAgentWorkflows();
  });
  // One replay worker per release folder, made when its first fixture's test runs: each test still
  // passes or fails on its own history's replay alone.
  const batches = new Map<string, Promise<Map<string, Error | undefined>>>();
  const batchOf = (fixture: string) => {
    let batch = batches.get(release(fixture));
    if (!batch) {
      // The sink is registered (with no handlers) so replay output stays free of unregistered-sink noise.
      batch = replayFixtures({ workflowBundle, sinks: lifecycleSinks([]) }, fixtures.filter((f) => release(f) === release(fixture)));
      batches.set(release(fixture), batch);
    }
    return batch;
  };

  it('has fixtures of a completed run, parked runs, a continued run and the preferences workflow', () => {
    const names = fixtures.map((f) => path.basename(f, '.json'));
    for (const wanted of ['completed', 'parked-approval', 'parked-question', 'continued-as-new', 'preferences']) expect(names).toContain(wanted);
  });

  it('has fixtures of the pre-redesign paths (10058f7): teams, people in the loop, guardrails, threads, compaction', () => {
    const names = fixtures.filter((f) => f.startsWith('10058f7/')).map((f) => path.basename(f, '.json'));
    const wanted = ['delegation', 'delegation-child', 'updates', 'answered-question', 'rejected', 'approval-timeout', 'cancelled', 'cancelled-child'];
    wanted.push('approve-always', 'approve-always-preferences', 'compaction', 'handoff', 'guardrails', 'guardrail-tripped', 'thread');
    for (const name of wanted) expect(names).toContain(name);
  });

  it.each(fixtures)('%s replays without nondeterminism', async (fixture) => {
    await replayedIn(batchOf(fixture), fixture);
  });
});
