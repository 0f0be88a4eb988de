// The benchmark's side of bench/load/worker-process.ts: fork a worker, sample it, stop it; and the
// starting of many runs, a bounded number at a time.
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { type BenchEnv, uniqueId } from '../support/bench-env';
import type { ChildMessage, ParentMessage } from './worker-process';

/** Starts in flight at once: enough to keep the worker saturated without a gRPC storm. */
export const START_CONCURRENCY = 50;

export type Sample = Extract<ChildMessage, { type: 'sample' }>;

/**
 * Warnings of the SDK's core, counted from the worker's output (which is passed on; the core's log
 * goes to stdout, the SDK's Node logger to stderr): the signs of a
 * worker that cannot keep up. A workflow task that takes over 5 s (TMPRL1104); one the server had
 * already timed out (10 s) when the worker completed it, so its work is thrown away and done again;
 * and a completion call to the server that timed out.
 */
export const CORE_WARNINGS = {
  slowWorkflowTasks: /Workflow task duration exceeded/,
  workflowTasksTimedOut: /Task not found when completing/,
  completionCallsTimedOut: /Error while completing workflow activation/,
} as const;
export type CoreWarnings = Record<keyof typeof CORE_WARNINGS, number>;

export interface WorkerProcess {
  pid: number;
  /** Core warnings counted so far (a live object). */
  warnings: CoreWarnings;
  ready: Extract<ChildMessage, { type: 'ready' }>;
  taskQueue: string;
  sample(gc?: boolean): Promise<Sample>;
  stop(): Promise<void>;
}

/** Calls `start(n)` for n in [0, count), `START_CONCURRENCY` at a time. */
export async function startMany(count: number, start: (n: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: START_CONCURRENCY }, async () => {
      while (next < count) await start(next++);
    }),
  );
}

export async function startWorker(env: BenchEnv, bundlePath: string, modelUrl: string, extra: NodeJS.ProcessEnv, execArgv: string[] = []): Promise<WorkerProcess> {
  const taskQueue = uniqueId('load');
  const child = fork(path.join(__dirname, 'worker-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...execArgv],
    env: { ...process.env, BENCH_ADDRESS: env.server.address, BENCH_TASK_QUEUE: taskQueue, BENCH_MODEL_URL: modelUrl, BENCH_BUNDLE: bundlePath, ...extra },
    stdio: ['inherit', 'pipe', 'pipe', 'ipc'],
  });
  const warnings = Object.fromEntries(Object.keys(CORE_WARNINGS).map((key) => [key, 0])) as CoreWarnings;
  for (const [input, output] of [
    [child.stdout!, process.stdout],
    [child.stderr!, process.stderr],
  ] as const)
    createInterface({ input }).on('line', (line) => {
      output.write(`${line}\n`);
      for (const [key, pattern] of Object.entries(CORE_WARNINGS)) if (pattern.test(line)) warnings[key as keyof CoreWarnings] += 1;
    });
  const ready = (await nextMessage(child, 'ready')) as WorkerProcess['ready'];
  // Samples are answered in order; one at a time keeps each answer with its question.
  let queue: Promise<unknown> = Promise.resolve();
  const sample = (gc = false) => {
    const next = queue.then(() => {
      const answer = nextMessage(child, 'sample');
      child.send({ type: 'sample', gc } satisfies ParentMessage);
      return answer as Promise<Sample>;
    });
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    pid: child.pid!,
    warnings,
    ready,
    taskQueue,
    sample,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' } satisfies ParentMessage);
      await exited;
    },
  };
}

function nextMessage(child: ChildProcess, type: ChildMessage['type']): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`worker process exited (${code}) before sending "${type}"`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function waitFor(worker: WorkerProcess, done: (s: Sample) => boolean, what: string, timeoutMs = 60 * 60_000): Promise<Sample> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await worker.sample();
    if (done(current)) return current;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(current)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
