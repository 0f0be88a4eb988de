// Patch `lean-history` (issue 37): a new run records one patch marker for every patch before it, not one
// each (each marker also made the SDK upsert `TemporalChangeVersion`); the cost is still upserted at
// every iteration's end that changed it (issue 34's cadence). Against the real dev server; the run's
// own history then replays against the same code.
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { lifecycleSinks } from '../../../src/runtime/lifecycle/lifecycle-sink';
import { bundleAgentWorkflows, tempWorkspace, withAgentWorker } from '../../support/agent-run-harness';
import { useFakeModel } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const MODEL = 'lean-test-model';
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

async function pricesFile(): Promise<string> {
  const file = path.join(await tempWorkspace(), 'prices.json');
  await writeFile(file, JSON.stringify({ [MODEL]: { input: 3, output: 15 } }));
  return file;
}

const upsertsOf = (events: HistoryEvent[], key: string) => events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.[key] != null);

describe('patch lean-history', () => {
  const bed = useFakeModel();

  it('records one patch marker, still upserts the cost at each iteration that changed it, and the history replays', async () => {
    const task = uniqueId('lean task');
    const listing = reply(toolCall('list_files', {}));
    bed.fake.script(task, [listing, listing, listing, listing, reply(toolCall('complete_task', { summary: 'listed', status: 'success' }))]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_MODEL_PRICES_FILE: await pricesFile() } }, async ({ client, start }) => {
      const handle = await start({ agent: 'general', task, model: MODEL });
      const result = await handle.result();
      expect(result.status).toBe('completed');
      expect(result.iterations).toBe(5);
      const history = await client.workflow.getHandle(handle.workflowId).fetchHistory();
      const events = history.events ?? [];
      const patches = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch');
      // The lean-history marker, spend-budget's (a new run asks for it on its own as before),
      // audit-after-commit's and quick-loop's (added after lean-history, so each recorded on its own).
      expect(patches.length).toBeLessThanOrEqual(4);
      expect(upsertsOf(events, 'TemporalChangeVersion').length).toBeLessThanOrEqual(4);
      const costs = upsertsOf(events, 'AgentCostUsd').map((e) => defaultPayloadConverter.fromPayload<number>(e.upsertWorkflowSearchAttributesEventAttributes!.searchAttributes!.indexedFields!.AgentCostUsd!));
      // One figure per iteration (each made a model call, so each changed it), rising to the result's.
      expect(costs.length).toBe(result.iterations);
      expect(costs).toEqual([...costs].sort((a, b) => a - b));
      expect(new Set(costs).size).toBe(costs.length);
      expect(costs.at(-1)).toBe(result.costUsd);
      await Worker.runReplayHistory({ workflowBundle: await bundleAgentWorkflows(), sinks: lifecycleSinks([]) }, history, handle.workflowId);
    });
  });
});
