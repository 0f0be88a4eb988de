// Sustained load (issue 37): `--runs` concurrent runs on one worker process against a fake Messages API
// that answers after `--model-latency` ms, as a model does. Every run loops (a no-op read tool, then
// the next model call) until the measurement ends. For each worker configuration, after all runs are
// started and a warm-up, a window of `--window` seconds measures:
//   - iterations per second, and per worker CPU-second (utime + stime of the worker process, /proc);
//   - the time from a model reply (its last byte sent) to the same run's next model request: what the
//     worker and the server add to an iteration, queueing for slots included;
//   - model calls in flight (what the activity slots let through);
//   - from the SDK runtime's own Prometheus metrics (as AGENT_METRICS_PORT serves them): sticky cache
//     hits and misses, cache size, forced evictions, workflow and activity task schedule-to-start;
//   - peak worker RSS over the whole configuration (sampled every second).
// Then the fake answers `complete_task` to every run and the bench waits for all to end (the drain).
// Configurations run alternately (A B A B with --rounds 2), since the machine's load drifts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import { startRun } from '../../src/client/start-run';
import { callId, stepOf } from '../../test/support/step-script';
import { assertProc, processCpuMs } from '../cpu/proc-cpu';
import { type BenchEnv, mib, ms, percentile, report, sizeArg, startBenchEnv, table, uniqueId } from '../support/bench-env';
import { startFakeModel, taskOf } from '../support/fake-model';
import { histogramDelta, histogramPercentileBound, scrape, type Histogram, type PromSnapshot } from './prom-text';
import { resultsFile, writeSustainedSection } from './results-section';
import { type CoreWarnings, type Sample, startMany, startWorker, START_CONCURRENCY, type WorkerProcess } from './worker-control';

/** Worker configurations by name: what is handed to createAgentWorker's `workerOptions`. */
export const CONFIGS: Record<string, { options: Partial<WorkerOptions>; why: string }> = {
  default: { options: {}, why: "the SDK's defaults: a cache sized from the heap, 40 workflow task slots, 100 activity and 100 local activity slots" },
  slots: {
    options: { maxConcurrentActivityTaskExecutions: 1_000, maxConcurrentLocalActivityExecutions: 1_000, maxConcurrentWorkflowTaskExecutions: 100 },
    why: 'a slot for every run\'s model call (1,000 activity slots; the model call is an activity that waits on the network), 1,000 local activity slots, 100 workflow task slots',
  },
  cache500: { options: { maxCachedWorkflows: 500 }, why: 'the SDK defaults with the sticky cache bounded below the runs in flight (500 for 1,000 runs)' },
  tuner: {
    options: { tuner: { tunerOptions: { targetMemoryUsage: 0.8, targetCpuUsage: 0.9 } } },
    why: "the SDK's resource-based tuner (target 80% memory, 90% CPU) for every slot kind; it reads the whole machine's CPU, which other sessions load",
  },
};

interface Row {
  config: string;
  round: number;
  loadAvg: [number, number];
  startSeconds: number;
  windowSeconds: number;
  iterations: number;
  cpuSeconds: number;
  inFlightMean: number;
  inFlightMax: number;
  gaps: number[];
  peakRss: number;
  idleRss: number;
  hits: number;
  misses: number;
  cacheSize: number;
  evictions: number;
  wftFailed: number;
  wftScheduleToStart: Histogram;
  activityScheduleToStart: Histogram;
  retries: number;
  drainSeconds: number;
  ended: number;
  terminated: number;
  /** Runs that had made their first model call by the window's end (the others were still waiting for their first workflow task). */
  begun: number;
  /** Runs in the worker's cache at the window's end, as the worker itself counts them (getStatus). */
  cached: number;
  /** Core warnings in the window, and over the whole configuration (starts and drain included). */
  windowWarnings: CoreWarnings;
  warnings: CoreWarnings;
  compiled: Record<string, unknown>;
}

export async function runSustained(): Promise<void> {
  const runs = sizeArg('runs', 1_000);
  const latencyMs = sizeArg('model-latency', 2_000);
  const windowSeconds = sizeArg('window', 90);
  const warmupSeconds = sizeArg('warmup', 20);
  const rounds = sizeArg('rounds', 2);
  const drainSeconds = sizeArg('drain', 120);
  const at = process.argv.indexOf('--configs');
  const names = (at >= 0 ? process.argv[at + 1]! : 'default,slots').split(',');
  for (const name of names) if (!CONFIGS[name]) throw new Error(`--configs: no configuration "${name}" (known: ${Object.keys(CONFIGS).join(', ')})`);

  const fake = sustainedModel(latencyMs);
  const model = await startFakeModel(fake.answer, { latencyMs, replied: fake.replied });
  const env = await startBenchEnv();
  const bundlePath = path.join(mkdtempSync(path.join(tmpdir(), 'bench-bundle-')), 'workflows.js');
  writeFileSync(bundlePath, env.bundle.code);
  const connection = await Connection.connect({ address: env.server.address });
  const client = new Client({ connection });
  const rows: Row[] = [];
  const command = `npm run bench:load -- --model-latency ${latencyMs} --runs ${runs} --configs ${names.join(',')} --rounds ${rounds} --window ${windowSeconds} --warmup ${warmupSeconds} --drain ${drainSeconds}`;
  const write = (done: Row[]) => {
    const partial = done.length < rounds * names.length ? `\n\n(Partial: ${done.length} of ${rounds * names.length} measurements so far.)` : '';
    const body = describe(done, { runs, latencyMs, windowSeconds, warmupSeconds, names: names.filter((name) => done.some((r) => r.config === name)) }) + partial;
    report('load-sustained', command, body);
    writeSustainedSection(resultsFile('load'), [`## ${runs} concurrent runs on one worker, ${latencyMs} ms model latency (issue 37)`, '', `Command: \`${command}\` · ${new Date().toISOString()}`, '', body].join('\n'));
  };
  try {
    for (let round = 1; round <= rounds; round += 1)
      for (const name of names) {
        const row = await measure({ env, bundlePath, modelUrl: model.baseUrl, client, fake, name, round, runs, windowSeconds, warmupSeconds, drainSeconds });
        rows.push(row);
        // Written after every configuration, so a run cut short keeps what it measured.
        write(rows);
        console.error(`${name} round ${round}: ${(row.iterations / row.windowSeconds).toFixed(1)} it/s, ${(row.iterations / row.cpuSeconds).toFixed(1)} it/worker CPU-s, gap p95 ${ms(percentile(row.gaps, 95), 0)} ms, hit rate ${hitRate(row)}, peak ${mib(row.peakRss, 0)} MiB`);
      }
  } finally {
    await connection.close();
    await env.close();
    await model.close();
  }
}

/** The fake model's script and what it records: replies of a run and the next request of the same run. */
function sustainedModel(latencyMs: number) {
  const lastReply = new Map<string, number>();
  const seen = new Map<string, Set<number>>();
  const draining = new Set<string>();
  const state = { tag: '', measuring: false, begun: 0, requests: 0, inFlight: 0, inFlightMax: 0, retries: 0, gaps: [] as number[] };
  const tagOf = (task: string) => task.slice(0, task.indexOf(' run '));
  return {
    state,
    latencyMs,
    draining,
    answer(body: Parameters<typeof taskOf>[0]) {
      const task = taskOf(body);
      const now = performance.now();
      state.inFlight += 1;
      const step = stepOf({ body });
      const steps = seen.get(task) ?? new Set<number>();
      if (steps.size === 0 && tagOf(task) === state.tag) state.begun += 1;
      if (steps.has(step)) state.retries += 1;
      steps.add(step);
      seen.set(task, steps);
      if (state.measuring && tagOf(task) === state.tag) {
        state.inFlightMax = Math.max(state.inFlightMax, state.inFlight);
        state.requests += 1;
        const before = lastReply.get(task);
        if (before !== undefined) state.gaps.push(now - before);
      }
      return draining.has(tagOf(task))
        ? [{ type: 'tool_use' as const, id: callId(step), name: 'complete_task', input: { summary: 'done', status: 'success' } }]
        : [{ type: 'tool_use' as const, id: callId(step), name: 'noop', input: { n: step } }];
    },
    replied(body: Parameters<typeof taskOf>[0]) {
      state.inFlight -= 1;
      lastReply.set(taskOf(body), performance.now());
    },
  };
}

type SustainedModel = ReturnType<typeof sustainedModel>;

interface MeasureArgs {
  env: BenchEnv;
  bundlePath: string;
  modelUrl: string;
  client: Client;
  fake: SustainedModel;
  name: string;
  round: number;
  runs: number;
  windowSeconds: number;
  warmupSeconds: number;
  drainSeconds: number;
}

async function measure(args: MeasureArgs): Promise<Row> {
  const { fake, runs } = args;
  const tag = uniqueId(`sustained-${args.name}`);
  const worker = await startWorker(args.env, args.bundlePath, args.modelUrl, {
    BENCH_TEMPORAL_METRICS: '1',
    BENCH_WORKER_OPTIONS: JSON.stringify(CONFIGS[args.name]!.options),
  });
  const metricsUrl = worker.ready.temporalMetricsUrl;
  if (!metricsUrl) throw new Error('the worker process did not serve the Temporal runtime metrics');
  try {
    const idle = await worker.sample(true);
    let peakRss = idle.rss;
    const inFlight: number[] = [];
    const sampler = setInterval(() => {
      if (fake.state.measuring) inFlight.push(fake.state.inFlight);
      void worker.sample().then((s) => (peakRss = Math.max(peakRss, s.rss)), () => undefined);
    }, 1_000);
    try {
      Object.assign(fake.state, { tag, begun: 0 });
      const started = performance.now();
      await startMany(runs, (n) => startRun(args.client, { agent: 'loader', task: `${tag} run ${n}` }, { taskQueue: worker.taskQueue, workflowId: `${tag}-${n}` }));
      const startSeconds = (performance.now() - started) / 1000;
      console.error(`${args.name} round ${args.round}: ${runs} runs started in ${startSeconds.toFixed(1)} s; warming up ${args.warmupSeconds} s`);
      await sleep(args.warmupSeconds * 1000);

      Object.assign(fake.state, { measuring: true, requests: 0, inFlightMax: 0, gaps: [] });
      const retriesBefore = fake.state.retries;
      const loadBefore = loadavg()[0]!;
      const warningsBefore = { ...worker.warnings };
      const [metricsBefore, cpuBefore, windowStart] = [await scrape(metricsUrl), (assertProc(worker.pid), processCpuMs(worker.pid)), performance.now()];
      await sleep(args.windowSeconds * 1000);
      const cpuSeconds = (processCpuMs(worker.pid) - cpuBefore) / 1000;
      const windowSeconds = (performance.now() - windowStart) / 1000;
      const metricsAfter = await scrape(metricsUrl);
      fake.state.measuring = false;
      const windowWarnings = Object.fromEntries(Object.entries(worker.warnings).map(([key, n]) => [key, n - warningsBefore[key as keyof CoreWarnings]])) as CoreWarnings;
      const { cached } = await worker.sample();
      const { requests: iterations, inFlightMax, gaps, begun } = fake.state;

      console.error(`${args.name} round ${args.round}: window done (${iterations} iterations); draining`);
      const drainStart = performance.now();
      fake.draining.add(tag);
      // A worker that has fallen over may take very long to end every run: after --drain seconds, the
      // runs still open are terminated (counted), so the next configuration starts on a quiet server.
      const ended = await waitUntil(worker, (s) => s.ended >= runs, args.drainSeconds * 1000);
      const drainSeconds = (performance.now() - drainStart) / 1000;
      let terminated = 0;
      if (ended.ended < runs)
        await startMany(runs, (n) =>
          args.client.workflow
            .getHandle(`${tag}-${n}`)
            .terminate('bench:load drain cap')
            .then(() => (terminated += 1), () => undefined),
        );
      return {
        config: args.name,
        round: args.round,
        loadAvg: [loadBefore, loadavg()[0]!],
        startSeconds,
        windowSeconds,
        iterations,
        cpuSeconds,
        inFlightMean: inFlight.reduce((a, b) => a + b, 0) / Math.max(1, inFlight.length),
        inFlightMax,
        gaps,
        peakRss: Math.max(peakRss, ended.rss),
        idleRss: idle.rss,
        ...cacheFigures(metricsBefore, metricsAfter),
        retries: fake.state.retries - retriesBefore,
        drainSeconds,
        ended: ended.ended,
        begun,
        terminated,
        cached,
        windowWarnings,
        warnings: { ...worker.warnings },
        compiled: worker.ready.options,
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await worker.stop();
  }
}

function cacheFigures(before: PromSnapshot, after: PromSnapshot) {
  const delta = (name: string) => after.value(name) - before.value(name);
  return {
    hits: delta('temporal_sticky_cache_hit'),
    misses: delta('temporal_sticky_cache_miss'),
    cacheSize: after.value('temporal_sticky_cache_size'),
    evictions: delta('temporal_sticky_cache_total_forced_eviction'),
    wftFailed: delta('temporal_workflow_task_execution_failed'),
    wftScheduleToStart: histogramDelta(before.histogram('temporal_workflow_task_schedule_to_start_latency'), after.histogram('temporal_workflow_task_schedule_to_start_latency')),
    activityScheduleToStart: histogramDelta(before.histogram('temporal_activity_schedule_to_start_latency'), after.histogram('temporal_activity_schedule_to_start_latency')),
  };
}

const hitRate = (row: Row) => (row.hits + row.misses === 0 ? 'n/a' : `${((100 * row.hits) / (row.hits + row.misses)).toFixed(1)}%`);
const mean = (h: Histogram) => (h.count === 0 ? 'n/a' : (h.sum / h.count).toFixed(0));
const bound = (h: Histogram, p: number) => {
  const le = histogramPercentileBound(h, p);
  return Number.isNaN(le) ? 'n/a' : Number.isFinite(le) ? `≤ ${le}` : `> ${h.buckets.at(-2)?.le ?? '?'}`;
};

/** The slots and cache a worker ran with, as the SDK compiled its options. */
function compiledOptions(compiled: Record<string, unknown>): string {
  const tuner = (compiled.tuner ?? {}) as Record<string, { type?: string; numSlots?: number } | undefined>;
  const slots = (key: string) => {
    const supplier = tuner[key];
    return supplier?.numSlots !== undefined ? String(supplier.numSlots) : (supplier?.type ?? '?');
  };
  return `cache ${String(compiled.maxCachedWorkflows)}, workflow task slots ${slots('workflowTaskSlotSupplier')}, activity ${slots('activityTaskSlotSupplier')}, local activity ${slots('localActivityTaskSlotSupplier')}, workflow threads ${String(compiled.workflowThreadPoolSize)}`;
}

function describe(rows: Row[], o: { runs: number; latencyMs: number; windowSeconds: number; warmupSeconds: number; names: string[] }): string {
  const best = Math.max(...rows.map((r) => r.iterations / r.cpuSeconds));
  const firstRows = o.names.map((name) => rows.find((r) => r.config === name)!);
  return [
    `One worker process (its own RSS and CPU), a local dev server and a fake Messages API that answers every model call after ${o.latencyMs} ms, all on this`,
    `machine. **The machine was shared with five other sessions' builds and tests** (1-minute load average in the table; 2 cores), so every`,
    'figure here is lower than an idle machine would give, and configurations ran alternately so that drift in that load hits each alike.',
    '',
    `${o.runs} runs are started ${START_CONCURRENCY} at a time; each loops a no-op read tool (a local activity) and the next model call until the end.`,
    `After the last start and ${o.warmupSeconds} s of warm-up, a ${o.windowSeconds} s window measures. An iteration is one model request; "reply → next request"`,
    "is the time from a model reply's last byte to the same run's next model request: what the worker and the server add to each iteration,",
    'slot queueing included (at zero added time a run would iterate every model latency). Worker CPU is utime + stime of the worker process;',
    'iterations per worker CPU-second is what one fully used core of worker serves. Cache and schedule-to-start figures are the SDK runtime\'s',
    'Prometheus metrics (`temporal_sticky_cache_hit`/`_miss`/`_size`, `temporal_sticky_cache_total_forced_eviction`,',
    '`temporal_*_schedule_to_start_latency`, in ms; a histogram gives only the bucket bound of its p95), read over the window.',
    'Then every run is told to complete (`complete_task`); "drain" is the time until all have ended, at most `--drain` seconds, after which',
    "the rest are terminated (counted). The worker's core logs a warning for a",
    'workflow task over 5 s, and for one it completes after the server timed it out (10 s: "Task not found when completing"; its work is',
    "thrown away and the task runs again); the bench counts them in the worker's output, in the window and over the whole configuration.",
    '',
    'Configurations (`createAgentWorker({ workerOptions })`):',
    '',
    ...firstRows.map((r) => `- **${r.config}**: ${CONFIGS[r.config]!.why}. Compiled: ${compiledOptions(r.compiled)}.`),
    '',
    table(
      ['config', 'round', 'load avg (start → end)', 'runs begun by the window\'s end', 'iterations', 'iterations / s', 'worker CPU s', 'iterations / worker CPU-second', 'model calls in flight mean / max', 'reply → next request p50 ms', 'p95 ms', 'p99 ms', 'worker RSS idle MiB', 'peak MiB'],
      rows.map((r) => [
        r.config,
        r.round,
        `${r.loadAvg[0].toFixed(1)} → ${r.loadAvg[1].toFixed(1)}`,
        `${r.begun} / ${o.runs}`,
        r.iterations,
        (r.iterations / r.windowSeconds).toFixed(1),
        r.cpuSeconds.toFixed(1),
        (r.iterations / r.cpuSeconds).toFixed(1),
        `${r.inFlightMean.toFixed(0)} / ${r.inFlightMax}`,
        ms(percentile(r.gaps, 50), 0),
        ms(percentile(r.gaps, 95), 0),
        ms(percentile(r.gaps, 99), 0),
        mib(r.idleRss, 0),
        mib(r.peakRss, 0),
      ]),
    ),
    '',
    table(
      ['config', 'round', 'sticky cache hits', 'misses', 'hit rate', 'cache size at end (metric / getStatus)', 'forced evictions', 'workflow task schedule-to-start mean ms', 'p95 ms', 'activity schedule-to-start mean ms', 'p95 ms', 'workflow tasks failed', 'workflow tasks over 5 s (window / all)', 'workflow tasks timed out (window / all)', 'completion calls timed out (all)', 'model calls repeated', 'starts took s', 'drain s', 'runs ended (terminated after the drain)'],
      rows.map((r) => [
        r.config,
        r.round,
        r.hits,
        r.misses,
        hitRate(r),
        `${r.cacheSize} / ${r.cached}`,
        r.evictions,
        mean(r.wftScheduleToStart),
        bound(r.wftScheduleToStart, 95),
        mean(r.activityScheduleToStart),
        bound(r.activityScheduleToStart, 95),
        r.wftFailed,
        `${r.windowWarnings.slowWorkflowTasks} / ${r.warnings.slowWorkflowTasks}`,
        `${r.windowWarnings.workflowTasksTimedOut} / ${r.warnings.workflowTasksTimedOut}`,
        r.warnings.completionCallsTimedOut,
        r.retries,
        r.startSeconds.toFixed(1),
        r.drainSeconds.toFixed(0),
        `${r.ended} / ${o.runs}${r.terminated ? ` (${r.terminated})` : ''}`,
      ]),
    ),
    '',
    `At ${o.latencyMs} ms a model call, a run that lost no time between calls would iterate ${(1000 / o.latencyMs).toFixed(2)} times a second, so ${o.runs} runs`,
    `would ask for ${((o.runs * 1000) / o.latencyMs).toFixed(0)} iterations a second. At the best rate measured here (${best.toFixed(1)} iterations per worker CPU-second), that is`,
    `${((o.runs * 1000) / o.latencyMs / best).toFixed(1)} fully used cores of worker; one core keeps about ${((best * o.latencyMs) / 1000).toFixed(0)} such runs without queueing.`,
  ].join('\n');
}

/** Samples until `done` or `timeoutMs`; the last sample either way. */
async function waitUntil(worker: WorkerProcess, done: (s: Sample) => boolean, timeoutMs: number): Promise<Sample> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await worker.sample();
    if (done(current) || Date.now() > deadline) return current;
    await sleep(1_000);
  }
}

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));
