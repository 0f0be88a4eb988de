// Worker memory with many runs parked on approvals. The worker runs alone in a child process (so the
// benchmark's own clients do not count); RSS and heap are sampled after a forced GC, before any run
// and after every run has parked on its first tool call.
//
//   npm run bench:memory -- [--runs 1000] [--max-cached N]
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startRun } from '../src/client/start-run';
import { callId } from '../test/support/step-script';
import type { ChildMessage, ParentMessage } from './memory/worker-process';
import { mib, report, sizeArg, startBenchEnv, table, uniqueId } from './support/bench-env';
import { startFakeModel } from './support/fake-model';
import { Client, Connection } from '@temporalio/client';

const RUNS = sizeArg('runs', 1_000);
const maxCachedArg = process.argv.indexOf('--max-cached');
const MAX_CACHED = maxCachedArg >= 0 ? process.argv[maxCachedArg + 1] : undefined;
const START_CONCURRENCY = 20;

type Sample = Extract<ChildMessage, { type: 'sample' }>;

async function run(): Promise<void> {
  // Every run asks for the gated tool at once, and parks there.
  const model = await startFakeModel(() => [{ type: 'tool_use', id: callId(0), name: 'gated_noop', input: { n: 0 } }]);
  const env = await startBenchEnv();
  const bundlePath = path.join(mkdtempSync(path.join(tmpdir(), 'bench-bundle-')), 'workflows.js');
  writeFileSync(bundlePath, env.bundle.code);
  const taskQueue = uniqueId('memory');

  const child = fork(path.join(__dirname, 'memory', 'worker-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, BENCH_ADDRESS: env.server.address, BENCH_TASK_QUEUE: taskQueue, BENCH_MODEL_URL: model.baseUrl, BENCH_BUNDLE: bundlePath, ...(MAX_CACHED ? { BENCH_MAX_CACHED: MAX_CACHED } : {}) },
  });
  const ready = await nextMessage(child, 'ready');
  const sample = async () => {
    child.send({ type: 'sample' } satisfies ParentMessage);
    return (await nextMessage(child, 'sample')) as Sample;
  };

  const connection = await Connection.connect({ address: env.server.address });
  const client = new Client({ connection });
  // One run first, so the baseline includes loaded code, connections and the workflow VM.
  await startRun(client, { agent: 'parker', task: 'warm-up' }, { taskQueue, workflowId: uniqueId('warm') });
  await waitParked(sample, 1);
  const before = await sample();

  const started = performance.now();
  const milestones: Sample[] = [];
  let next = 0;
  const starting = Promise.all(
    Array.from({ length: START_CONCURRENCY }, async () => {
      while (next < RUNS) {
        const n = next++;
        await startRun(client, { agent: 'parker', task: `memory bench run ${n}` }, { taskQueue, workflowId: `memory-${taskQueue}-${n}` });
      }
    }),
  );
  // Samples on the way show whether memory grows with the parked runs or levels off.
  for (const share of [0.25, 0.5, 0.75]) milestones.push(await waitParked(sample, 1 + Math.ceil(RUNS * share)));
  await starting;
  const after = await waitParked(sample, RUNS + 1);
  const seconds = (performance.now() - started) / 1000;

  child.send({ type: 'stop' } satisfies ParentMessage);
  await new Promise((resolve) => child.once('exit', resolve));
  await connection.close();
  await env.close();
  await model.close();

  const perRun = (a: number, b: number) => `${((b - a) / RUNS / 1024).toFixed(1)}`;
  report(
    MAX_CACHED ? `memory-max-cached-${MAX_CACHED}` : 'memory',
    `npm run bench:memory -- --runs ${RUNS}${MAX_CACHED ? ` --max-cached ${MAX_CACHED}` : ''}`,
    [
      `${RUNS} runs, each parked on an approval at its first tool call, served by one worker process (sampled after a forced GC).`,
      `Workflow cache: maxCachedWorkflows = ${ready.type === 'ready' ? ready.maxCachedWorkflows : '?'} (${MAX_CACHED ? 'set with --max-cached' : "the SDK default for this heap"}); ${after.cached} runs cached after parking. Parking all took ${seconds.toFixed(0)} s.`,
      '',
      table(
        ['measure', 'before (1 run parked)', `after (${RUNS + 1} parked)`, 'growth', 'per parked run KiB'],
        [
          ['RSS MiB', mib(before.rss, 1), mib(after.rss, 1), mib(after.rss - before.rss, 1), perRun(before.rss, after.rss)],
          ['main-thread JS heap MiB (workflow threads are in RSS only)', mib(before.heapUsed, 1), mib(after.heapUsed, 1), mib(after.heapUsed - before.heapUsed, 1), perRun(before.heapUsed, after.heapUsed)],
          ['cached workflows', before.cached, after.cached, after.cached - before.cached, ''],
        ],
      ),
      '',
      'On the way (RSS, parked runs):',
      '',
      table(
        ['parked runs', 'RSS MiB', 'main-thread JS heap MiB', 'cached workflows'],
        [before, ...milestones, after].map((s) => [s.parked, mib(s.rss, 1), mib(s.heapUsed, 1), s.cached]),
      ),
    ].join('\n'),
  );
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

async function waitParked(sample: () => Promise<Sample>, count: number): Promise<Sample> {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const current = await sample();
    if (current.parked >= count) return current;
    if (Date.now() > deadline) throw new Error(`only ${current.parked} of ${count} runs parked`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
