// The worker the load benchmark measures, alone in its own process so the benchmark's clients and
// fake model do not count in its memory. IPC: "ready" once polling, a sample whenever asked.
//
// BENCH_WORKER_OPTIONS (JSON) is handed to createAgentWorker's `workerOptions` (cache size, slots,
// a resource-based tuner). BENCH_TEMPORAL_METRICS=1 installs the runtime as a worker with
// AGENT_METRICS_PORT does (installWorkerRuntime): the SDK's Prometheus exporter on a loopback port,
// whose URL "ready" carries, so the benchmark reads the sticky cache and schedule-to-start figures.
import { DefaultLogger, type WorkerOptions } from '@temporalio/worker';
import { installWorkerRuntime } from '../../src/runtime/observability/runtime';
import { createAgentWorker } from '../../src/runtime/worker-setup/create-agent-worker';
import { quietRuntime } from '../support/bench-env';
import { benchAgent, gatedProbeTool, noopTool } from '../support/bench-tools';

export type ParentMessage = { type: 'sample'; gc: boolean } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; maxCachedWorkflows: number; temporalMetricsUrl?: string; options: Record<string, unknown> }
  | { type: 'sample'; rss: number; heapUsed: number; parked: number; ended: number; cached: number };

async function run(): Promise<void> {
  const env = process.env;
  let temporalMetricsUrl: string | undefined;
  if (env.BENCH_TEMPORAL_METRICS === '1') ({ temporalMetricsUrl } = await installWorkerRuntime({ metrics: true }, new DefaultLogger('ERROR')));
  else quietRuntime();
  const workerOptions = JSON.parse(env.BENCH_WORKER_OPTIONS ?? '{}') as Partial<WorkerOptions>;
  let parked = 0;
  let ended = 0;
  const agentWorker = await createAgentWorker({
    // As before the audit log was on by default: the figures stay comparable with earlier runs.
    auditLog: false,
    address: env.BENCH_ADDRESS,
    taskQueue: env.BENCH_TASK_QUEUE,
    // AGENT_MAX_CACHED_WORKFLOWS comes through as a user would set it.
    env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: env.BENCH_MODEL_URL, AGENT_MAX_CACHED_WORKFLOWS: env.AGENT_MAX_CACHED_WORKFLOWS },
    workflowBundle: { codePath: env.BENCH_BUNDLE! },
    agents: [benchAgent('loader', ['noop']), benchAgent('parker', ['gated_noop'])],
    tools: [noopTool, gatedProbeTool(() => undefined)],
    workerOptions,
    lifecycleHandlers: [{ handle: (e) => void (e.name === 'approvalRequested' ? (parked += 1) : e.name === 'agentEnded' && (ended += 1)) }],
  });
  const { worker } = agentWorker;
  const send = (message: ChildMessage) => process.send!(message);
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') worker.shutdown();
    if (message.type === 'sample') {
      if (message.gc) (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      send({ type: 'sample', rss: usage.rss, heapUsed: usage.heapUsed, parked, ended, cached: worker.getStatus().numCachedWorkflows });
    }
  });
  // The options as the SDK compiled them: its defaults filled in, slot counts as the tuner it built.
  const { maxCachedWorkflows, workflowThreadPoolSize, tuner } = worker.options;
  const options = { maxCachedWorkflows, workflowThreadPoolSize, tuner };
  send({ type: 'ready', maxCachedWorkflows: worker.options.maxCachedWorkflows, temporalMetricsUrl, options });
  await worker.run();
  await agentWorker.close();
  process.disconnect();
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
