// What watchers cost a run: one run streams a short reply per iteration, first through approvals (a
// write tool parked per turn, decided once the run is parked, as bench:approval does) and then through
// plain iterations, while `watchers` real `agentctl watch` invocations follow it. They attach while
// the run is parked on its first call, and the clock starts once every one of them says it waits.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { WorkflowHandle } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import { approvalSignal } from '../../src/contract/agent-run-api';
import { startRun } from '../../src/client/start-run';
import { parseWorkerSettings } from '../../src/runtime/config/worker-settings';
import { reply, text, toolCall, type FakeAnthropic } from '../../test/support/fake-anthropic';
import { benchWorker, gaps, uniqueId, type BenchEnv } from '../support/bench-env';
import { benchAgent, gatedProbeTool, noopTool } from '../support/bench-tools';
import { frontendRequests, ratesBetween } from './server-requests';
import { treeCpuMs } from '../cpu/proc-cpu';

/** About 50 characters in pieces of 6, 20 ms apart: a call that streams for about 180 ms. */
const REPLY_TEXT = 'Streaming a short reply, a few characters at a time.';
const WATCHERS_PER_HOST = 10;
/** Watchers that have not all attached by then are measured as they are (the table says how many had). */
const ATTACH_WAIT_MS = 120_000;

export interface WatchCostOptions {
  env: BenchEnv;
  metricsUrl: string;
  fake: FakeAnthropic;
  watchers: number;
  approvals: number;
  iterations: number;
  workerOptions?: Partial<WorkerOptions>;
  /** The worker's settings on top of the fake model's (e.g. AGENT_LIVE_RELAY=off). */
  workerEnv?: Record<string, string>;
  /** The watchers' environment on top of the connection (e.g. how they read the live text). */
  clientEnv?: Record<string, string>;
  /** Run the watcher hosts on these CPUs only (`taskset -c`), apart from the run's (see `--pin`). */
  watcherCpus?: string;
}

export interface WatchCost {
  /** Model request to the next one, over the plain iterations. */
  iterationMs: number[];
  /** Decision sent to the approved tool starting. */
  approvalMs: number[];
  /** Frontend requests per second in the window, by operation. */
  rates: Map<string, number>;
  seconds: number;
  /** Watchers that followed the run to its end (exit code 0). */
  watchersDone: number;
  /** Watchers that had said the run waits when the clock started (all, unless ATTACH_WAIT_MS ran out). */
  watchersReady: number;
  /** CPU seconds the watcher hosts used in all (user + system, from their start to their end). */
  watcherCpuSeconds: number;
  /** Model requests in the window (the iterations the CPU figures are divided by). */
  windowRequests: number;
  /**
   * CPU ms per model request in the window of the bench process: the worker (and its relay, which
   * pushes to the watchers), the fake model, the bench's own decisions. What a watcher costs the run's
   * side, apart from the CPU the watchers themselves take on a shared machine.
   */
  runCpuMsPerRequest: number;
  /** The dev server's CPU ms per model request in the window (all it serves, watchers included). */
  serverCpuMsPerRequest: number;
  /** The window on the monotonic clock in µs (a `--cpu-prof` profile's clock), to read a profile of it. */
  windowUs: [number, number];
}

async function settled(handle: WorkflowHandle): Promise<void> {
  for (;;) {
    const { raw } = await handle.describe();
    if (!raw.pendingWorkflowTask) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function startHosts(workflowId: string, watchers: number, env: NodeJS.ProcessEnv, cpus: string | undefined): { hosts: ChildProcess[]; ready: Promise<void>; readyCount: () => number; done: Promise<number>; cpuSeconds: () => number } {
  let cpuSeconds = 0;
  const hosts: ChildProcess[] = [];
  let readyCount = 0;
  const readies: Promise<void>[] = [];
  const dones: Promise<number>[] = [];
  for (let left = watchers; left > 0; left -= WATCHERS_PER_HOST) {
    const count = Math.min(WATCHERS_PER_HOST, left);
    const command = [process.execPath, '--import', 'tsx', path.join(__dirname, 'watch-host.ts'), workflowId, String(count)];
    const [file, ...args] = cpus ? ['taskset', '-c', cpus, ...command] : command;
    const child = spawn(file!, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    hosts.push(child);
    const lines = readline.createInterface({ input: child.stderr! });
    // What a watcher says besides `ready` and `done` (an error, a stack) is shown, a few lines per host.
    let said = 0;
    lines.on('line', (line) => {
      if (!/^(ready|done) /.test(line) && said++ < 5) console.error(`watch host: ${line}`);
    });
    readies.push(new Promise((resolve) => lines.on('line', (line) => {
      if (!line.startsWith('ready')) return;
      readyCount += count;
      resolve();
    })));
    dones.push(new Promise((resolve) => {
      let finished = 0;
      lines.on('line', (line) => {
        const done = /^done (\d+)/.exec(line);
        if (done) finished = Number(done[1]);
        const cpu = /^done .* cpu ([\d.]+)$/.exec(line);
        if (cpu) cpuSeconds += Number(cpu[1]);
      });
      child.on('close', () => resolve(finished));
    }));
  }
  return { hosts, ready: Promise.all(readies).then(() => undefined), readyCount: () => readyCount, done: Promise.all(dones).then((n) => n.reduce((a, b) => a + b, 0)), cpuSeconds: () => cpuSeconds };
}

export async function measureWatchCost(options: WatchCostOptions): Promise<WatchCost> {
  const { env, fake, approvals, iterations } = options;
  const task = uniqueId('watched');
  const streamed = (tool: string, n: number) => reply(text(REPLY_TEXT), toolCall(tool, { n })).chunked(6, 20);
  fake.script(task, [
    ...Array.from({ length: approvals + 1 }, (_, n) => streamed('gated_noop', n)),
    ...Array.from({ length: iterations }, (_, n) => streamed('noop', n)),
    reply(toolCall('complete_task', { summary: 'watched', status: 'success' })),
  ]);
  const sent = new Map<number, number>();
  const started = new Map<number, number>();
  let handle: WorkflowHandle | undefined;
  let firstPark: () => void = () => undefined;
  const parked = new Promise<void>((resolve) => (firstPark = resolve));
  let watchersAttached: () => void = () => undefined;
  const watchersReady = new Promise<void>((resolve) => (watchersAttached = resolve));
  const decide = async (n: number, callId: string) => {
    if (n === 0) {
      firstPark();
      await watchersReady;
    }
    await settled(handle!);
    sent.set(n, performance.now());
    await handle!.signal(approvalSignal, { callId, decision: 'approve', approver: 'bench' });
  };
  const worker = await benchWorker(env, fake.baseUrl, {
    agents: [benchAgent('watched', ['gated_noop', 'noop'])],
    tools: [gatedProbeTool((n) => started.set(n, performance.now())), noopTool],
    lifecycleHandlers: [{
      handle(event) {
        if (event.name !== 'approvalRequested' || event.workflowId !== handle?.workflowId) return;
        const n = (event.data.input as { n: number }).n;
        void decide(n, event.data.callId).catch((error: unknown) => console.error('decision failed:', error));
      },
    }],
    workerOptions: options.workerOptions,
    ...(options.workerEnv ? { settings: parseWorkerSettings({ ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: fake.baseUrl, ...options.workerEnv }) } : {}),
  });
  let result: WatchCost | undefined;
  await worker.worker.runUntil(async () => {
    handle = await startRun(worker.client, { agent: 'watched', task }, { taskQueue: worker.taskQueue, workflowId: uniqueId('watched-run') });
    await parked;
    const hostEnv = { ...process.env, TEMPORAL_ADDRESS: env.server.address, TEMPORAL_TASK_QUEUE: worker.taskQueue, ...options.clientEnv };
    const hosts = options.watchers > 0 ? startHosts(handle.workflowId, options.watchers, hostEnv, options.watcherCpus) : undefined;
    if (hosts) await Promise.race([hosts.ready, new Promise((resolve) => setTimeout(resolve, ATTACH_WAIT_MS))]);
    const attached = hosts?.readyCount() ?? 0;
    watchersAttached();
    const before = await frontendRequests(options.metricsUrl);
    const serverPid = env.server.process.pid!;
    const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
    const cpuFrom = { run: process.cpuUsage(), server: treeCpuMs(serverPid), wall: Date.now(), us: monotonicUs() };
    const from = performance.now();
    await handle.result();
    const seconds = (performance.now() - from) / 1000;
    const runCpu = process.cpuUsage(cpuFrom.run);
    const windowUs: [number, number] = [cpuFrom.us, monotonicUs()];
    const serverCpuMs = treeCpuMs(serverPid) - cpuFrom.server;
    const after = await frontendRequests(options.metricsUrl);
    const requests = fake.requestsFor(task);
    const windowRequests = Math.max(1, requests.filter((r) => r.at >= cpuFrom.wall).length);
    result = {
      iterationMs: gaps(requests.slice(approvals + 1).map((r) => r.at)),
      approvalMs: [...sent].filter(([n]) => n > 0 && started.has(n)).map(([n, at]) => started.get(n)! - at),
      rates: ratesBetween(before, after, seconds),
      seconds,
      watchersDone: (await hosts?.done) ?? 0,
      watchersReady: attached,
      watcherCpuSeconds: hosts?.cpuSeconds() ?? 0,
      windowRequests,
      runCpuMsPerRequest: (runCpu.user + runCpu.system) / 1000 / windowRequests,
      serverCpuMsPerRequest: serverCpuMs / windowRequests,
      windowUs,
    };
  });
  await worker.close();
  return result!;
}
