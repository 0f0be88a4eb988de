// The floor's worker for bench:cpu, alone in its own process like worker-process.ts, with the
// options agentRun's worker sets that touch this loop: the heartbeat throttle and --worker-options
// (the bench sets no AGENT_MAX_CACHED_WORKFLOWS, so both keep the SDK's cache size). IPC as worker-process.ts, plus "call" messages that mark the
// steady window for the `none` mode: sent only for the two boundary calls, so they cost nothing per
// iteration.
import * as path from 'node:path';
import { DefaultLogger, NativeConnection, Worker, bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';
import { quietRuntime } from '../support/bench-env';
import { createBareCpuActivities } from './bare-activities';
import type { ChildMessage, ParentMessage } from './worker-process';

async function run(): Promise<void> {
  quietRuntime();
  const env = process.env;
  const marks = new Set((env.BENCH_WINDOW_CALLS ?? '').split(',').filter(Boolean).map(Number));
  const connection = await NativeConnection.connect({ address: env.BENCH_ADDRESS });
  const worker = await Worker.create({
    connection,
    taskQueue: env.BENCH_TASK_QUEUE!,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'bare-workflow.ts'), logger: new DefaultLogger('ERROR') }),
    activities: createBareCpuActivities(env.BENCH_MODEL_URL!, (count) => {
      if (marks.has(count)) process.send!({ type: 'call', count } satisfies ChildMessage);
    }),
    maxHeartbeatThrottleInterval: '500 milliseconds',
    ...(JSON.parse(env.BENCH_WORKER_OPTIONS ?? '{}') as Partial<WorkerOptions>),
  });
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') worker.shutdown();
  });
  process.send!({ type: 'ready' } satisfies ChildMessage);
  await worker.run();
  await connection.close();
  process.disconnect();
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
