// The worker the load benchmark measures, alone in its own process so the benchmark's clients and
// fake model do not count in its memory. IPC: "ready" once polling, a sample whenever asked.
import { createAgentWorker } from '../../src/runtime/worker-setup/create-agent-worker';
import { quietRuntime } from '../support/bench-env';
import { benchAgent, gatedProbeTool, noopTool } from '../support/bench-tools';

export type ParentMessage = { type: 'sample'; gc: boolean } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; maxCachedWorkflows: number }
  | { type: 'sample'; rss: number; heapUsed: number; parked: number; ended: number; cached: number };

async function run(): Promise<void> {
  quietRuntime();
  const env = process.env;
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
  send({ type: 'ready', maxCachedWorkflows: worker.options.maxCachedWorkflows });
  await worker.run();
  await agentWorker.close();
  process.disconnect();
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
