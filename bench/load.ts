// Load on one worker process: many concurrent runs (throughput, iteration latency under load, worker
// memory), then many runs parked on approvals with a bounded workflow cache (worker memory). The
// worker runs alone in a child process, so its RSS is its own; the fake model stamps every request,
// and an iteration is the time between two model requests of the same run, queueing included.
//
// The parked runs are measured twice, side by side in one run: with the bounded cache alone, and
// with the V8 heap capped as well (`--max-old-space-size`, which caps every isolate of the process,
// the workflow threads included), because V8 otherwise lets the workflow threads' heaps grow with
// the garbage of thousands of evicted runs.
//
//   npm run bench:load -- [--runs 1000] [--iterations 5] [--parked 10000] [--max-cached 100] [--max-old-space 384] [--concurrent-only]
//
// --concurrent-only stops after the concurrent runs (the parked runs take about 25 minutes), writing
// bench/results/load-concurrent.md. The worker's CPU over the concurrent runs is read from /proc
// (bench/cpu/proc-cpu.ts): iterations per worker CPU-second is what one core of worker serves.
//
// --model-latency <ms> runs the sustained comparison instead (issue 37, bench/load/sustained.ts): --runs
// concurrent runs looping against a model that answers after that latency, on one worker per
// configuration, configurations alternately, each measured over a window with the SDK runtime's own
// metrics (sticky cache, schedule-to-start). It writes bench/results/load-sustained.md and its own
// section of bench/results/load.md (the two modes keep each other's part of that file):
//
//   npm run bench:load -- --model-latency 2000 [--runs 1000] [--configs default,slots,cache500,tuner] [--rounds 2] [--window 90] [--warmup 20]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startRun } from '../src/client/start-run';
import { callId, stepOf } from '../test/support/step-script';
import { assertProc, processCpuMs } from './cpu/proc-cpu';
import { restoreSustainedSection, resultsFile, sustainedSection } from './load/results-section';
import { runSustained } from './load/sustained';
import { type Sample, START_CONCURRENCY, startMany, startWorker, waitFor } from './load/worker-control';
import { type BenchEnv, mib, ms, percentile, report, sizeArg, startBenchEnv, table } from './support/bench-env';
import { startFakeModel, taskOf } from './support/fake-model';

const RUNS = sizeArg('runs', 1_000);
const ITERATIONS = sizeArg('iterations', 5);
const PARKED = sizeArg('parked', 10_000);
const MAX_CACHED = sizeArg('max-cached', 100);
/** The V8 heap cap (MiB) of the second parked worker, which runs beside one without a cap. */
const MAX_OLD_SPACE = sizeArg('max-old-space', 384);
const CONCURRENT_ONLY = process.argv.includes('--concurrent-only');

async function run(): Promise<void> {
  const lastStamp = new Map<string, number>();
  const latencies: number[] = [];
  let loadRequests = 0;
  const model = await startFakeModel((body) => {
    const task = taskOf(body);
    const now = performance.now();
    if (task.startsWith('park')) return [{ type: 'tool_use', id: callId(0), name: 'gated_noop', input: { n: 0 } }];
    loadRequests += 1;
    const before = lastStamp.get(task);
    if (before !== undefined) latencies.push(now - before);
    lastStamp.set(task, now);
    const step = stepOf({ body });
    return step < ITERATIONS
      ? [{ type: 'tool_use', id: callId(step), name: 'noop', input: { n: step } }]
      : [{ type: 'tool_use', id: callId(step), name: 'complete_task', input: { summary: 'done', status: 'success' } }];
  });
  const env = await startBenchEnv();
  const bundlePath = path.join(mkdtempSync(path.join(tmpdir(), 'bench-bundle-')), 'workflows.js');
  writeFileSync(bundlePath, env.bundle.code);
  const connection = await Connection.connect({ address: env.server.address });
  const client = new Client({ connection });

  // 1. Concurrent runs, on a worker with the SDK's default cache (every run stays cached).
  const busy = await startWorker(env, bundlePath, model.baseUrl, {});
  const idle = await busy.sample(true);
  let peakRss = idle.rss;
  const sampler = setInterval(() => void busy.sample().then((s) => (peakRss = Math.max(peakRss, s.rss)), () => undefined), 1_000);
  assertProc(busy.pid);
  const cpuBefore = processCpuMs(busy.pid);
  const started = performance.now();
  await startMany(RUNS, (n) => startRun(client, { agent: 'loader', task: `load run ${n}` }, { taskQueue: busy.taskQueue, workflowId: `load-${busy.taskQueue}-${n}` }));
  const startSeconds = (performance.now() - started) / 1000;
  const ended = await waitFor(busy, (s) => s.ended >= RUNS, 'runs ended');
  const seconds = (performance.now() - started) / 1000;
  const workerCpuSeconds = (processCpuMs(busy.pid) - cpuBefore) / 1000;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, ended.rss);
  const afterLoad = await busy.sample(true);
  await busy.stop();
  const iterations = loadRequests;
  console.error(`load: ${RUNS} runs, ${iterations} iterations in ${seconds.toFixed(1)} s`);

  const concurrent = [
    `One worker process (its own RSS, nothing else), a local dev server, a zero-latency fake Messages API.`,
    '',
    `**Concurrent runs.** ${RUNS} runs started ${START_CONCURRENCY} at a time, each ${ITERATIONS} iterations of a no-op read tool (a local activity) and a`,
    `completing turn; SDK default workflow cache (${busy.ready.maxCachedWorkflows}). An iteration is the time between two model requests of one run, under the load.`,
    'Worker CPU is utime + stime of the worker process (all its threads) from the first start to the last run\'s end; iterations per worker',
    'CPU-second is what one fully used core of worker serves.',
    '',
    table(
      ['runs', 'model requests', 'wall s', 'starts took s', 'iterations / s', 'worker CPU s', 'iterations / worker CPU-second', 'iteration p50 ms', 'p95 ms', 'p99 ms', 'worker RSS idle MiB', 'peak MiB', 'after (GC) MiB'],
      [[RUNS, iterations, seconds.toFixed(1), startSeconds.toFixed(1), (iterations / seconds).toFixed(1), workerCpuSeconds.toFixed(1), (iterations / workerCpuSeconds).toFixed(1), ms(percentile(latencies, 50), 1), ms(percentile(latencies, 95), 1), ms(percentile(latencies, 99), 1), mib(idle.rss, 0), mib(peakRss, 0), mib(afterLoad.rss, 0)]],
    ),
  ];
  if (CONCURRENT_ONLY) {
    await connection.close();
    await env.close();
    await model.close();
    report('load-concurrent', `npm run bench:load -- --runs ${RUNS} --iterations ${ITERATIONS} --concurrent-only`, concurrent.join('\n'));
    return;
  }

  // 2. Runs parked on approvals, on a worker with a bounded cache (AGENT_MAX_CACHED_WORKFLOWS), then on one with the heap capped too.
  const parkedPhases: ParkedPhase[] = [];
  for (const execArgv of [[], [`--max-old-space-size=${MAX_OLD_SPACE}`]]) parkedPhases.push(await parkRuns(env, bundlePath, model.baseUrl, client, execArgv));
  await connection.close();
  await env.close();
  await model.close();

  const GiB = 1024 ** 3;
  const kept = sustainedSection(resultsFile('load'));
  report(
    'load',
    `npm run bench:load -- --runs ${RUNS} --iterations ${ITERATIONS} --parked ${PARKED} --max-cached ${MAX_CACHED} --max-old-space ${MAX_OLD_SPACE}`,
    [
      ...concurrent,
      '',
      `**Parked runs.** ${PARKED} runs per worker, each parked on an approval at its first tool call, with AGENT_MAX_CACHED_WORKFLOWS=${MAX_CACHED}`,
      `(maxCachedWorkflows ${parkedPhases[0]!.maxCachedWorkflows}). The first and last rows are sampled after a forced GC of the main thread, the`,
      'others as they come; the peak is the highest RSS of samples taken every half second while parking.',
      '',
      table(
        ['worker', 'parked runs', 'worker RSS MiB', 'main-thread heap MiB', 'cached workflows'],
        parkedPhases.flatMap((phase) => [...phase.milestones.map((s) => [phase.label, s.parked, mib(s.rss, 0), mib(s.heapUsed, 0), s.cached]), [phase.label, `peak while parking (${phase.seconds.toFixed(0)} s)`, mib(phase.peakRss, 0), '', '']]),
      ),
      '',
      ...parkedPhases.map((phase) =>
        PARKED >= 10_000
          ? `Target (issue 13), worker RSS under 1 GiB with 10,000 parked runs, ${phase.label}: ${phase.peakRss < GiB ? 'met' : 'NOT met'} (peak ${mib(phase.peakRss, 0)} MiB, ${mib(phase.milestones.at(-1)!.rss, 0)} MiB at the end).`
          : `Target (issue 13), ${phase.label}: not measured by this run (${PARKED} parked: peak ${mib(phase.peakRss, 0)} MiB, ${phase.peakRss < GiB ? 'under' : 'over'} 1 GiB).`,
      ),
    ].join('\n'),
  );
  restoreSustainedSection(resultsFile('load'), kept);
}

interface ParkedPhase {
  label: string;
  maxCachedWorkflows: number;
  milestones: Sample[];
  peakRss: number;
  seconds: number;
}

/** Parks `PARKED` runs on a fresh worker process and samples its memory on the way. */
async function parkRuns(env: BenchEnv, bundlePath: string, modelUrl: string, client: Client, execArgv: string[]): Promise<ParkedPhase> {
  const label = execArgv.length === 0 ? `cache ${MAX_CACHED}` : `cache ${MAX_CACHED}, ${execArgv.join(' ')}`;
  const parker = await startWorker(env, bundlePath, modelUrl, { AGENT_MAX_CACHED_WORKFLOWS: String(MAX_CACHED) }, execArgv);
  const milestones = [await parker.sample(true)];
  let peakRss = milestones[0]!.rss;
  const sampler = setInterval(() => void parker.sample().then((s) => (peakRss = Math.max(peakRss, s.rss)), () => undefined), 500);
  const started = performance.now();
  const starting = startMany(PARKED, (n) => startRun(client, { agent: 'parker', task: `park run ${n}` }, { taskQueue: parker.taskQueue, workflowId: `park-${parker.taskQueue}-${n}` }));
  for (const share of [0.25, 0.5, 0.75]) {
    milestones.push(await waitFor(parker, (s) => s.parked >= Math.ceil(PARKED * share), 'runs parked'));
    console.error(`${label}: parked ${milestones.at(-1)!.parked} of ${PARKED}, RSS ${mib(milestones.at(-1)!.rss, 0)} MiB`);
  }
  await starting;
  await waitFor(parker, (s) => s.parked >= PARKED, 'runs parked');
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const last = await parker.sample(true);
  milestones.push(last);
  peakRss = Math.max(peakRss, last.rss);
  await parker.stop();
  return { label, maxCachedWorkflows: parker.ready.maxCachedWorkflows, milestones, peakRss, seconds };
}

(process.argv.includes('--model-latency') ? runSustained() : run()).catch((error) => {
  console.error(error);
  process.exit(1);
});
