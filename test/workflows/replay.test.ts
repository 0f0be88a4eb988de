// Safe upgrades: every committed history of an earlier release replays against today's workflow code.
// A change that alters the commands an already-running workflow would issue fails here unless it is
// guarded with patched() (see docs/upgrading.md). Fixtures are captured by scripts/capture-histories.ts.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { lifecycleSinks } from '../../src/lifecycle/lifecycle-sink';
import { bundleAgentWorkflows } from '../support/agent-run-harness';

const ROOT = path.join(__dirname, '..', 'fixtures', 'histories');
const fixtures = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(path.join(ROOT, d.name)).filter((f) => f.endsWith('.json')).map((f) => `${d.name}/${f}`));

describe('replay of saved histories', () => {
  let workflowBundle: WorkflowBundle;
  beforeAll(async () => {
    workflowBundle = await bundleAgentWorkflows();
  });

  it('has fixtures of a completed run, parked runs, a continued run and the preferences workflow', () => {
    const names = fixtures.map((f) => path.basename(f, '.json'));
    for (const wanted of ['completed', 'parked-approval', 'parked-question', 'continued-as-new', 'preferences']) expect(names).toContain(wanted);
  });

  it.each(fixtures)('%s replays without nondeterminism', async (fixture) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(ROOT, fixture), 'utf8')));
    // The sink is registered (with no handlers) so replay output stays free of unregistered-sink noise.
    await Worker.runReplayHistory({ workflowBundle, sinks: lifecycleSinks([]) }, history, `replay-${fixture}`);
  });
});
