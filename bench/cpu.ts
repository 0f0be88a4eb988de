// CPU per iteration (issue 24): the worker's, split into its main thread, its workflow threads and
// the rest (Temporal core's Rust threads, V8's helpers, libuv), and the dev server's. The worker runs
// alone in a child process; CPU is read from /proc (see bench/cpu/proc-cpu.ts) over the steady
// window only: from the model request that ends the warm-up to the last model request of the
// scenario. An iteration is one model request (a tool call, or the completing turn).
// Scenarios 4–6 are the floor, measured the same way: a bare Temporal workflow with agentRun's
// iteration shape (one model activity, one local activity for the tool) and no runtime at all; its
// model activity streams from the fake API (4), makes the SDK's plain call (5) or no request (6).
//
//   npm run bench:cpu -- [--iterations 200] [--output-bytes 5000] [--runs 50] [--run-iterations 20] [--warmup 20]
//                        [--scenarios 1,2,3,4,5,6] [--profile DIR] [--eager] [--worker-options JSON]
//                        [--count-promises]
// --eager turns on the server's eager activity dispatch (system.enableActivityEagerExecution);
// --worker-options '{"reuseV8Context":false}' is merged into the worker's WorkerOptions: each
// changes the figures, and the README says by how much.
// --profile runs each worker under `node --cpu-prof` (one .cpuprofile per thread, in DIR/<scenario>/);
// `npx tsx bench/cpu/profile-summary.ts DIR/1 <iterations>` ranks where that CPU went.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { startRun } from '../src/client/start-run';
import { runChain } from '../test/support/run-chain';
import { callId, stepOf } from '../test/support/step-script';
import { billableActions } from './history/history-profile';
import type { BareMode } from './cpu/bare-activities';
import type { ChildMessage, ParentMessage } from './cpu/worker-process';
import { assertProc, processCpuMs, threadCpuMs, treeCpuMs } from './cpu/proc-cpu';
import { type BenchEnv, ms, report, sizeArg, startBenchEnv, table, uniqueId } from './support/bench-env';
import { type FakeModel, startFakeModel, taskOf, type ReplyBlock } from './support/fake-model';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const ITERATIONS = sizeArg('iterations', 200);
const OUTPUT_BYTES = sizeArg('output-bytes', 5_000);
const RUNS = sizeArg('runs', 50);
const RUN_ITERATIONS = sizeArg('run-iterations', 20);
/** Model requests of each scenario (over all its runs) left out of the measure: JIT, caches, pools. */
const WARMUP = sizeArg('warmup', 20);

interface Scenario {
  label: string;
  agent: 'cpu-small' | 'cpu-bulk';
  runs: number;
  iterations: number;
  call(step: number): ReplyBlock;
  /** A floor scenario: the bare workflow (bench/cpu/bare-workflow.ts) instead of agentRun. */
  floor?: BareMode;
}

const listFiles = (n: number): ReplyBlock => ({ type: 'tool_use', id: callId(n), name: 'list_files', input: {} });
const floor = (mode: BareMode, how: string): Scenario => ({ label: `floor: bare Temporal workflow, ${ITERATIONS} iterations, ${how}`, agent: 'cpu-small', runs: 1, iterations: ITERATIONS, call: listFiles, floor: mode });

const ALL_SCENARIOS: Scenario[] = [
  { label: `${ITERATIONS} iterations, small read tool (list_files)`, agent: 'cpu-small', runs: 1, iterations: ITERATIONS, call: listFiles },
  { label: `${ITERATIONS} iterations, ${OUTPUT_BYTES}-byte tool outputs`, agent: 'cpu-bulk', runs: 1, iterations: ITERATIONS, call: (n) => ({ type: 'tool_use', id: callId(n), name: 'bulk', input: { n, size: OUTPUT_BYTES } }) },
  { label: `${RUNS} runs × ${RUN_ITERATIONS} iterations side by side, small read tool`, agent: 'cpu-small', runs: RUNS, iterations: RUN_ITERATIONS, call: listFiles },
  floor('stream', 'model activity streams from the fake API as ours does, local activity for the tool'),
  floor('json', 'model activity makes the SDK\'s plain (non-streaming) call, local activity for the tool'),
  floor('none', 'model activity makes no request (Temporal alone), local activity for the tool'),
];

/** `--scenarios 1,3`: run only these (1-based), e.g. to profile one. */
const scenariosArg = process.argv.indexOf('--scenarios');
const SCENARIOS = scenariosArg < 0 ? ALL_SCENARIOS : process.argv[scenariosArg + 1]!.split(',').map((n) => ALL_SCENARIOS[Number(n) - 1]!).filter(Boolean);
const EAGER = process.argv.includes('--eager');
const workerOptionsArg = process.argv.indexOf('--worker-options');
const WORKER_OPTIONS = workerOptionsArg < 0 ? '{}' : process.argv[workerOptionsArg + 1]!;
const profileArg = process.argv.indexOf('--profile');
const PROFILE_DIR = profileArg < 0 ? undefined : path.resolve(process.argv[profileArg + 1]!);
/** `--count-promises`: count the promises created in workflow contexts (a diagnostic: the counting hook costs CPU itself). */
const COUNT_PROMISES = process.argv.includes('--count-promises');

interface Snapshot {
  worker: number;
  main: number;
  workflow: number;
  server: number;
  at: number;
  /** Promises created in workflow contexts so far (only with --count-promises; 50 ms resolution). */
  promises: number;
  /** CLOCK_MONOTONIC in µs, the clock of V8's profile timestamps: the profile summary keeps this window only. */
  monotonicUs: number;
}

interface Measured {
  scenario: Scenario;
  iterations: number;
  workflowThreads: number;
  summarizer: number;
  /** Over every run of the scenario (warm-up included), per model request: what the server stored and bills. */
  history: { events: number; actions: number; byKind: Record<string, number>; eventsByKind: Record<string, number> };
  start: Snapshot;
  end: Snapshot;
}

/** What the fake model is answering now: one scenario at a time. */
let active: { scenario: Scenario; requests: number; total: number; onRequest(count: number): void } | undefined;

async function run(): Promise<void> {
  const model = await startFakeModel((body) => {
    if (!active || !taskOf(body).startsWith('cpu bench')) throw new Error(`unexpected request: ${taskOf(body).slice(0, 80)}`);
    active.requests += 1;
    active.onRequest(active.requests);
    const step = stepOf({ body });
    return [step < active.scenario.iterations ? active.scenario.call(step) : { type: 'tool_use', id: callId(step), name: 'complete_task', input: { summary: 'done', status: 'success' } }];
  });
  const env = await startBenchEnv(EAGER ? { dynamicConfig: { 'system.enableActivityEagerExecution': true } } : {});
  const serverPid = env.server.process.pid!;
  assertProc(serverPid);
  const scratch = mkdtempSync(path.join(tmpdir(), 'bench-cpu-'));
  const bundlePath = path.join(scratch, 'workflows.js');
  writeFileSync(bundlePath, env.bundle.code);
  // A small workspace, so list_files answers a few short lines.
  const workspace = path.join(scratch, 'ws');
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  for (const name of ['README.md', 'package.json', 'src/index.ts', 'src/util.ts']) writeFileSync(path.join(workspace, name), `${name}\n`);
  const connection = await Connection.connect({ address: env.server.address });
  const client = new Client({ connection });

  const loadBefore = loadavg()[0]!;
  const results: Measured[] = [];
  for (const scenario of SCENARIOS) results.push(await measure(scenario, env, client, { bundlePath, workspace, modelUrl: model.baseUrl, serverPid, scratch, served: model.served }));
  await connection.close();
  await env.close();
  await model.close();

  const per = (m: Measured, key: keyof Omit<Snapshot, 'at'>) => ms((m.end[key] - m.start[key]) / m.iterations);
  const other = (m: Measured) => ms((m.end.worker - m.end.main - m.end.workflow - (m.start.worker - m.start.main - m.start.workflow)) / m.iterations);
  report(
    'cpu',
    `npm run bench:cpu -- --iterations ${ITERATIONS} --output-bytes ${OUTPUT_BYTES} --runs ${RUNS} --run-iterations ${RUN_ITERATIONS} --warmup ${WARMUP}${EAGER ? ' --eager' : ''}${WORKER_OPTIONS === '{}' ? '' : ` --worker-options '${WORKER_OPTIONS}'`}`,
    [
      'One worker process (a child of the bench, with nothing else in it), the bench\'s own local dev server, a zero-latency fake Messages API',
      'in the bench process. CPU is utime + stime from /proc: the worker process as a whole, its main thread (/proc/<pid>/task/<pid>), its',
      'workflow threads (the Temporal SDK\'s worker threads, each of which records its thread id through a preloaded module), "other" being',
      'the rest of the worker (Temporal core\'s Rust threads, V8 GC and compiler helpers, libuv), and the dev server process with its children.',
      '',
      `**Steady window only.** Each scenario runs on a fresh worker process; the first ${WARMUP} model requests of the scenario (over all its runs)`,
      `are warm-up and not counted. Counting starts when request number ${WARMUP} arrives at the fake model and stops when the last one arrives; an iteration is one model request (a tool`,
      'call or the completing turn), so the window holds (requests − warm-up) iterations. /proc counts in clock ticks (10 ms), hence the long windows.',
      '',
      // CPU time is less disturbed by other work than wall time, but not immune (caches, frequency, the server's timers).
      `Load average (1 min) at the start and end: ${loadBefore.toFixed(1)} and ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores; above the core count, other work shared the machine while this was measured.`,
      '',
      table(
        ['scenario', 'iterations measured', 'worker CPU ms / iteration', 'main thread', 'workflow threads', 'other threads', 'server CPU ms / iteration', 'wall ms / iteration', 'summarizer calls', 'history events / iteration', 'billable actions / iteration'],
        results.map((m) => [m.scenario.label, m.iterations, per(m, 'worker'), per(m, 'main'), `${per(m, 'workflow')} (${m.workflowThreads} thread${m.workflowThreads === 1 ? '' : 's'})`, other(m), per(m, 'server'), ms((m.end.at - m.start.at) / m.iterations), m.summarizer, ms(m.history.events, 2), ms(m.history.actions, 2)]),
      ),
      ...(COUNT_PROMISES ? ['', 'Promises created in workflow contexts per iteration (--count-promises; its hook\'s own CPU is in the figures above):', '', ...results.map((m) => `- ${m.scenario.label}: ${per(m, 'promises')}`)] : []),
      '',
      'History events and billable actions count every run of the scenario whole (warm-up included), per model request; billable actions are',
      'estimated from the histories as bench:history does (bench/history/history-profile.ts). By kind, per iteration:',
      '',
      ...results.map((m) => `- ${m.scenario.label}: ${Object.entries(m.history.byKind).map(([k, n]) => `${k} ${ms(n, 2)}`).join(', ')}`),
      '',
      'History events by type per iteration (≥ 0.01), search attribute upserts by the attribute they set, markers by name:',
      '',
      ...results.map((m) => `- ${m.scenario.label}: ${Object.entries(m.history.eventsByKind).filter(([, n]) => n >= 0.005).sort(([, a], [, b]) => b - a).map(([k, n]) => `${k} ${ms(n, 2)}`).join(', ')}`),
    ].join('\n'),
  );
}

interface Context {
  bundlePath: string;
  workspace: string;
  modelUrl: string;
  serverPid: number;
  scratch: string;
  /** The fake model's counters: compaction's summarizer calls are answered apart from the script. */
  served: FakeModel['served'];
}

async function measure(scenario: Scenario, env: BenchEnv, client: Client, ctx: Context): Promise<Measured> {
  const total = scenario.runs * (scenario.iterations + 1);
  if (WARMUP >= total) throw new Error(`--warmup ${WARMUP} leaves nothing to measure in "${scenario.label}" (${total} model requests): lower it`);
  const taskQueue = uniqueId('cpu');
  const threadsFile = path.join(ctx.scratch, `${taskQueue}.tids`);
  writeFileSync(threadsFile, '');
  const child = fork(path.join(__dirname, 'cpu', scenario.floor ? 'bare-worker-process.ts' : 'worker-process.ts'), [], {
    execArgv: [
      '--import', 'tsx', '--import', path.join(__dirname, 'cpu', 'tag-workflow-thread.mjs'),
      ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE_DIR, String(ALL_SCENARIOS.indexOf(scenario) + 1))}`] : []),
    ],
    env: { ...process.env, BENCH_ADDRESS: env.server.address, BENCH_TASK_QUEUE: taskQueue, BENCH_MODEL_URL: ctx.modelUrl, BENCH_BUNDLE: ctx.bundlePath, BENCH_WORKSPACE: ctx.workspace, BENCH_WORKFLOW_THREADS: threadsFile, BENCH_WORKER_OPTIONS: WORKER_OPTIONS, BENCH_WINDOW_CALLS: `${WARMUP},${total}`, ...(COUNT_PROMISES ? { BENCH_COUNT_PROMISES: '1' } : {}) },
  });
  const pid = child.pid!;
  await nextMessage(child, 'ready');
  const workflowTids = () => readFileSync(threadsFile, 'utf8').split('\n').filter(Boolean);
  // The threads before the process: its counters only grow, so the remainder ("other") is never below zero.
  const snapshot = (): Snapshot => {
    const main = threadCpuMs(pid, pid);
    const workflow = workflowTids().reduce((sum, tid) => sum + threadCpuMs(pid, tid), 0);
    const promises = COUNT_PROMISES ? workflowTids().reduce((sum, tid) => sum + Number(readIfThere(`${threadsFile}.${tid}.promises`) || 0), 0) : 0;
    return { main, workflow, promises, worker: processCpuMs(pid), server: treeCpuMs(ctx.serverPid), at: performance.now(), monotonicUs: Number(process.hrtime.bigint() / 1000n) };
  };
  let start: Snapshot | undefined;
  let end: Snapshot | undefined;
  active = { scenario, requests: 0, total, onRequest: (count) => void (count === WARMUP ? (start = snapshot()) : count === total && (end = snapshot())) };
  // The `none` floor reaches no fake model: its worker reports the boundary calls itself.
  if (scenario.floor === 'none') child.on('message', (m: ChildMessage) => m.type === 'call' && active && ((active.requests = m.count), active.onRequest(m.count)));
  const summarizerBefore = ctx.served.summarizer;
  const results = await Promise.all(
    Array.from({ length: scenario.runs }, async (_, n) => {
      const task = `cpu bench ${taskQueue} run ${n}`;
      const workflowId = `${taskQueue}-${n}`;
      const handle = scenario.floor
        ? await client.workflow.start('bareCpuLoop', { taskQueue, workflowId, args: [{ task, mode: scenario.floor, iterations: scenario.iterations }] })
        : await startRun(client, { agent: scenario.agent, task }, { taskQueue, workflowId });
      const result = await handle.result();
      const iterations = typeof result === 'number' ? result : result.iterations;
      return { iterations, links: await runChain(client, handle.workflowId, handle.firstExecutionRunId) };
    }),
  );
  const served = active.requests;
  active = undefined;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' } satisfies ParentMessage);
  await exited;
  const short = results.find((r) => r.iterations !== scenario.iterations + 1);
  if (short) throw new Error(`a run of "${scenario.label}" ended after ${short.iterations} iterations, not ${scenario.iterations + 1}`);
  if (!start || !end || served !== total) throw new Error(`"${scenario.label}": the fake model served ${served} requests, expected ${total}; the window is not the one described`);
  if (PROFILE_DIR) {
    const window = { startUs: start.monotonicUs, endUs: end.monotonicUs, iterations: total - WARMUP };
    writeFileSync(path.join(PROFILE_DIR, String(ALL_SCENARIOS.indexOf(scenario) + 1), 'window.json'), JSON.stringify(window));
  }
  console.error(`cpu: ${scenario.label}: done`);
  const events = results.flatMap((r) => r.links.flatMap((l) => l.history.events ?? []));
  const actions = billableActions(events);
  const perIteration = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).map(([k, n]) => [k, n / total]));
  const history = { events: events.length / total, actions: actions.total / total, byKind: perIteration(actions.byKind), eventsByKind: perIteration(eventsByKind(events)) };
  return { scenario, iterations: total - WARMUP, workflowThreads: workflowTids().length, summarizer: ctx.served.summarizer - summarizerBefore, history, start, end };
}

/** Events by type, with upserts split by the attributes they set and markers by name (issue 37's count by kind). */
function eventsByKind(events: readonly HistoryEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (kind: string) => void (counts[kind] = (counts[kind] ?? 0) + 1);
  for (const event of events) {
    const upsert = event.upsertWorkflowSearchAttributesEventAttributes;
    const marker = event.markerRecordedEventAttributes;
    if (upsert) add(`upsert ${Object.keys(upsert.searchAttributes?.indexedFields ?? {}).sort().join('+')}`);
    else if (marker) add(`marker ${marker.markerName ?? ''}`);
    else add(eventTypeName(event));
  }
  return counts;
}

function eventTypeName(event: HistoryEvent): string {
  const type = event.eventType;
  const name = typeof type === 'number' ? temporal.api.enums.v1.EventType[type] : String(type);
  return (name ?? 'unknown').replace(/^EVENT_TYPE_/, '').toLowerCase();
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function nextMessage(child: ChildProcess, type: ChildMessage['type']): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`worker process exited (${code}) before sending "${type}"`));
    child.once('message', onMessage);
    child.once('exit', onExit);
  });
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
