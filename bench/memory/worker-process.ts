// The worker whose memory the memory benchmark measures, alone in its own process. It talks to the
// benchmark over the IPC channel: "ready" once polling, and a memory sample whenever asked.
import { createAgentWorker } from '../../src/runtime/worker-setup/create-agent-worker';
import { quietRuntime } from '../support/bench-env';
import { benchAgent, gatedProbeTool } from '../support/bench-tools';

export type ParentMessage = { type: 'sample' } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; maxCachedWorkflows: number; pid: number }
  | { type: 'sample'; rss: number; heapUsed: number; external: number; parked: number; cached: number };

async function run(): Promise<void> {
  quietRuntime();
  const env = process.env;
  let parked = 0;
  const agentWorker = await createAgentWorker({
    // As before the audit log was on by default: the figures stay comparable with earlier runs.
    auditLog: false,
    address: env.BENCH_ADDRESS,
    taskQueue: env.BENCH_TASK_QUEUE,
    env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: env.BENCH_MODEL_URL },
    workflowBundle: { codePath: env.BENCH_BUNDLE! },
    agents: [benchAgent('parker', ['gated_noop'])],
    tools: [gatedProbeTool(() => undefined)],
    lifecycleHandlers: [{ handle: (e) => void (e.name === 'approvalRequested' && (parked += 1)) }],
    workerOptions: env.BENCH_MAX_CACHED ? { maxCachedWorkflows: Number(env.BENCH_MAX_CACHED) } : {},
  });
  const { worker } = agentWorker;
  const send = (message: ChildMessage) => process.send!(message);
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') worker.shutdown();
    if (message.type === 'sample') {
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      send({ type: 'sample', rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external, parked, cached: worker.getStatus().numCachedWorkflows });
    }
  });
  send({ type: 'ready', maxCachedWorkflows: worker.options.maxCachedWorkflows, pid: process.pid });
  await worker.run();
  await agentWorker.close();
  process.disconnect();
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
