// The worker the workspace-scan benchmark measures, alone in its own process (root, bubblewrap,
// commands as nobody, as in production). IPC: "ready" once polling, "started" when a shell call
// starts, and a memory sample (current and peak RSS) whenever asked.
import { readFileSync } from 'node:fs';
import { createAgentWorker } from '../../src/runtime/worker-setup/create-agent-worker';
import { quietRuntime } from '../support/bench-env';
import { benchAgent } from '../support/bench-tools';

export type ParentMessage = { type: 'sample' } | { type: 'stop' };
export type ChildMessage = { type: 'ready' } | { type: 'started'; tool: string } | { type: 'sample'; rss: number; peakRss: number };

function peakRss(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

async function run(): Promise<void> {
  quietRuntime();
  const env = process.env;
  const send = (message: ChildMessage) => process.send!(message);
  const agentWorker = await createAgentWorker({
    address: env.BENCH_ADDRESS,
    taskQueue: env.BENCH_TASK_QUEUE,
    workspaceRoot: env.BENCH_WORKSPACE,
    env: {
      ANTHROPIC_API_KEY: 'bench',
      ANTHROPIC_BASE_URL: env.BENCH_MODEL_URL,
      AGENT_SANDBOX: 'bwrap',
      PATH: env.PATH,
      ...(env.AGENT_SCAN_MAX_ENTRIES ? { AGENT_SCAN_MAX_ENTRIES: env.AGENT_SCAN_MAX_ENTRIES } : {}),
    },
    workflowBundle: { codePath: env.BENCH_BUNDLE! },
    agents: [benchAgent('scanner', ['shell']), benchAgent('reader', ['read_file'])],
    lifecycleHandlers: [{ handle: (e) => void (e.name === 'toolStarted' && send({ type: 'started', tool: e.data.tool })) }],
  });
  const { worker } = agentWorker;
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') worker.shutdown();
    if (message.type === 'sample') send({ type: 'sample', rss: process.memoryUsage().rss, peakRss: peakRss() });
  });
  send({ type: 'ready' });
  await worker.run();
  await agentWorker.close();
  process.disconnect();
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
