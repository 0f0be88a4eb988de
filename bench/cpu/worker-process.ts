// The worker bench:cpu measures, alone in its own process so that only its CPU counts: the bench's
// clients and fake model run in the parent. IPC: "ready" once polling, "stop" to shut down.
import type { WorkerOptions } from '@temporalio/worker';
import { createAgentWorker } from '../../src/runtime/worker-setup/create-agent-worker';
import { quietRuntime } from '../support/bench-env';
import { benchAgent, bulkTool } from '../support/bench-tools';

export type ParentMessage = { type: 'stop' };
/** `call`: only the floor's worker sends it (bare-worker-process.ts), to mark the steady window. */
export type ChildMessage = { type: 'ready' } | { type: 'call'; count: number };

async function run(): Promise<void> {
  quietRuntime();
  const env = process.env;
  const agentWorker = await createAgentWorker({
    // As before the audit log was on by default: the figures stay comparable with earlier runs.
    auditLog: false,
    address: env.BENCH_ADDRESS,
    taskQueue: env.BENCH_TASK_QUEUE,
    workspaceRoot: env.BENCH_WORKSPACE,
    env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: env.BENCH_MODEL_URL },
    workflowBundle: { codePath: env.BENCH_BUNDLE! },
    // list_files is a built-in tool: the small read tool of issue 24's measurements.
    agents: [benchAgent('cpu-small', ['list_files']), benchAgent('cpu-bulk', ['bulk'])],
    tools: [bulkTool],
    // bench:cpu --worker-options: SDK options whose effect on the figures the README reports.
    workerOptions: JSON.parse(env.BENCH_WORKER_OPTIONS ?? '{}') as Partial<WorkerOptions>,
  });
  const { worker } = agentWorker;
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') worker.shutdown();
  });
  process.send!({ type: 'ready' } satisfies ChildMessage);
  await worker.run();
  await agentWorker.close();
  process.disconnect();
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
