// Fairness on the server (issue 36): with fairness turned on in Temporal's matching
// (`matching.enableFairness`, as docs/guides/temporal.md says to), a tenant's few runs queued behind
// another tenant's many are dispatched among them, not after them, because every task of a run
// carries its fairness key. Order, not time: the runs are all queued before the worker starts, the
// worker has one activity slot, and the order of the model calls is the order the server handed out
// their activity tasks. bench/fairness.ts measures the same on a busy worker, in seconds.
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../scripts/temporal-dev-server';
import { startRun } from '../../src/client/start-run';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const A_RUNS = 30;
const B_RUNS = 3;

describe('fairness keys on a server with fairness turned on', () => {
  let server: DevServer;
  let connection: Connection;
  beforeAll(async () => {
    // One partition: several make dispatch order a per-partition matter, which is what fairness
    // weighs too, but this test reads the order of one queue.
    server = await startDevServer({
      headless: true,
      dynamicConfig: { 'matching.enableFairness': true, 'matching.numTaskqueueReadPartitions': 1, 'matching.numTaskqueueWritePartitions': 1 },
    });
    connection = await Connection.connect({ address: server.address });
  }, 120_000);
  afterAll(async () => {
    await connection?.close();
    await server?.stop();
  });
  const bed = useAgentTestbed();

  /** Queues A's runs, then B's, serves them with one activity slot, and returns B's places in the order of the model calls (0-based). */
  async function placesOfB(keys: boolean): Promise<number[]> {
    const prefix = uniqueId('fair');
    const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
    bed.fake.script(`${prefix} tenant-a`, [done]);
    bed.fake.script(`${prefix} tenant-b`, [done]);
    const client = new Client({ connection });
    const taskQueue = uniqueId('fair-q');
    const start = (tenant: string, n: number) =>
      startRun(client, { agent: 'general', task: `${prefix} ${tenant} run ${n}`, ...(keys ? { fairnessKey: tenant } : {}) }, { taskQueue, workflowId: `${taskQueue}-${tenant}-${n}` });
    const handles: Awaited<ReturnType<typeof start>>[] = [];
    for (let n = 0; n < A_RUNS; n += 1) handles.push(await start('tenant-a', n));
    for (let n = 0; n < B_RUNS; n += 1) handles.push(await start('tenant-b', n));
    await withAgentWorker({ ...bed.harness(), address: server.address, taskQueue, workerOptions: { maxConcurrentActivityTaskExecutions: 1, maxConcurrentWorkflowTaskExecutions: 2 } }, async () => {
      await Promise.all(handles.map((h) => h.result()));
    });
    const calls = bed.fake.requests.filter((r) => r.match?.startsWith(prefix));
    expect(calls).toHaveLength(A_RUNS + B_RUNS);
    return calls.flatMap((r, place) => (r.match === `${prefix} tenant-b` ? [place] : []));
  }

  it('dispatches the few runs of one tenant among the many of another, and without keys after them', async () => {
    const withKeys = await placesOfB(true);
    // Round robin between two keys would give B places 1, 3 and 5; some slack for the worker's own order.
    expect(Math.max(...withKeys), `B's model calls came at places ${withKeys.join(', ')} of ${A_RUNS + B_RUNS}`).toBeLessThan(12);
    const withoutKeys = await placesOfB(false);
    // The control: first in, first out, B behind all of A.
    expect(Math.min(...withoutKeys), `without keys B's model calls came at places ${withoutKeys.join(', ')}`).toBeGreaterThanOrEqual(A_RUNS - 5);
  }, 180_000);
});
