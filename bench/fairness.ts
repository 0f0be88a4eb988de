// Fairness and priority on one busy worker (issue 36). Two batches, each measured in several cases:
//
// - fairness: tenant A starts `--a-runs` runs (200), then tenant B starts `--b-runs` (5), on a task
//   queue served by ONE worker with a small slot pool; B's time to finish with and without fairness keys;
// - priority: `--low-runs` (200) runs start, then `--high-runs` (20) more; the late ones' time to
//   finish with priority 1 against the rest at 5, and without priorities.
//
// Each run is one model call (the fake Messages API answers after a fixed `--latency` ms) that
// completes the task. The worker has `--activity-slots` (2) activity slots and 2 workflow task
// slots (the SDK's least with a sticky queue): the model calls are the bottleneck, so a backlog of
// activity tasks builds in the server's matching while the worker works through it. Priority and
// fairness decide which backlog task a free slot gets next; nothing else in this bench orders them.
//
// Each case runs on a fresh task queue and a fresh worker, against one of two dev servers started
// side by side: the project's own dev-server settings (what `npm start` and the tests run) and the
// same plus `matching.enableFairness=true` (fairness is off by default in Temporal's matching).
// One more fairness case has a worker without a workflow cache (maxCachedWorkflows 0): a cached run's
// later workflow tasks go to the worker's sticky queue, where B's waited behind A's (see the guide).
// The cases run one after the other, alternating with and without, `--rounds` times (the machine
// is shared: noise hits both sides alike). The default run took 10.5 minutes at load 25 on 2 cores.
//
//   npm run bench:fairness -- [--a-runs 200] [--b-runs 5] [--low-runs 200] [--high-runs 20] [--latency 200] [--activity-slots 2] [--rounds 1]
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { startDevServer, type DevServer } from '../scripts/temporal-dev-server';
import { startRun } from '../src/client/start-run';
import type { AgentRunInput } from '../src/contract/run-input';
import { WORKFLOWS_PATH } from '../src/runtime/worker-setup/create-agent-worker';
import { reply, startFakeAnthropic, toolCall } from '../test/support/fake-anthropic';
import { benchAgent } from './support/bench-tools';
import { benchWorker, percentile, quietRuntime, report, sizeArg, table, type BenchEnv } from './support/bench-env';

const A_RUNS = sizeArg('a-runs', 200);
const B_RUNS = sizeArg('b-runs', 5);
const LOW_RUNS = sizeArg('low-runs', 200);
const HIGH_RUNS = sizeArg('high-runs', 20);
const LATENCY_MS = sizeArg('latency', 200);
const ACTIVITY_SLOTS = sizeArg('activity-slots', 2);
const ROUNDS = sizeArg('rounds', 1);
/** Starts in flight at once: a burst, as a tenant's batch job would send. */
const START_CONCURRENCY = 20;

/** The dynamic config that turns fairness on (Temporal's matching; it implies the priority matcher). */
const FAIRNESS_DYNAMIC_CONFIG = { 'matching.enableFairness': true };

type ServerName = 'default' | 'fairness';
interface Case {
  scenario: 'fairness' | 'priority';
  label: string;
  server: ServerName;
  /** The first batch's input extras and the second's. */
  first: Partial<AgentRunInput>;
  second: Partial<AgentRunInput>;
  /** Worker options besides the slot pool. */
  worker?: { maxCachedWorkflows?: number };
}

const CASES: Case[] = [
  // Alternating: without keys, with keys; then keys on a server that has not turned fairness on.
  { scenario: 'fairness', label: 'no fairness keys', server: 'fairness', first: {}, second: {} },
  { scenario: 'fairness', label: 'fairness keys', server: 'fairness', first: { fairnessKey: 'tenant-a' }, second: { fairnessKey: 'tenant-b' } },
  { scenario: 'fairness', label: 'fairness keys, fairness off (default server)', server: 'default', first: { fairnessKey: 'tenant-a' }, second: { fairnessKey: 'tenant-b' } },
  // Without a workflow cache every workflow task goes to the task queue, none to the worker's sticky queue.
  { scenario: 'fairness', label: 'fairness keys, no sticky queue (maxCachedWorkflows 0)', server: 'fairness', first: { fairnessKey: 'tenant-a' }, second: { fairnessKey: 'tenant-b' }, worker: { maxCachedWorkflows: 0 } },
  { scenario: 'priority', label: 'no priority', server: 'default', first: {}, second: {} },
  { scenario: 'priority', label: 'priority 1 vs 5', server: 'default', first: { priority: 5 }, second: { priority: 1 } },
];

interface Timed {
  started: number;
  finished: number;
}

interface Outcome {
  kase: Case;
  round: number;
  first: Timed[];
  second: Timed[];
  wallSeconds: number;
  /** The priority the second batch's first activity was scheduled with, read back from its history. */
  activityPriority: string;
  /** Where the second batch's runs waited, from their histories. */
  waits: QueueWaits[];
}

/** A run's time in the server's queues: scheduled to started, summed over its workflow tasks and its activities. */
interface QueueWaits {
  workflowTaskMs: number;
  /** Of which the run's first workflow task (on the task queue; later ones go to the worker's sticky queue while the run is cached). */
  firstWorkflowTaskMs: number;
  activityMs: number;
  /** Workflow tasks that timed out before a worker took them (a sticky queue's schedule-to-start timeout). */
  workflowTaskTimeouts: number;
}

async function run(): Promise<void> {
  quietRuntime();
  const model = await startFakeAnthropic();
  model.script('fairness bench', [reply(toolCall('complete_task', { summary: 'done', status: 'success', next_steps: 'nothing' })).delay(LATENCY_MS)]);
  const [defaultServer, fairServer, bundle] = await Promise.all([
    startDevServer({ headless: true }),
    startDevServer({ headless: true, dynamicConfig: FAIRNESS_DYNAMIC_CONFIG }),
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('ERROR') }),
  ]);
  const servers: Record<ServerName, DevServer> = { default: defaultServer, fairness: fairServer };
  const outcomes: Outcome[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const kase of CASES) {
        const outcome = await runCase({ server: servers[kase.server], bundle, close: async () => undefined }, model.baseUrl, kase, round);
        outcomes.push(outcome);
        console.error(`round ${round}, ${kase.scenario}, ${kase.label}: ${summary(outcome)}`);
      }
    }
  } finally {
    await Promise.all([defaultServer.stop(), fairServer.stop()]);
    await model.close();
  }
  report('fairness', commandLine(), body(outcomes));
}

async function runCase(env: BenchEnv, modelUrl: string, kase: Case, round: number): Promise<Outcome> {
  const agentWorker = await benchWorker(env, modelUrl, {
    agents: [benchAgent('bench', [])],
    workerOptions: { maxConcurrentActivityTaskExecutions: ACTIVITY_SLOTS, maxConcurrentWorkflowTaskExecutions: 2, ...kase.worker },
  });
  const running = agentWorker.worker.run();
  const connection = await Connection.connect({ address: env.server.address });
  const client = new Client({ connection });
  const [firstCount, secondCount] = kase.scenario === 'fairness' ? [A_RUNS, B_RUNS] : [LOW_RUNS, HIGH_RUNS];
  const began = performance.now();
  try {
    const start = (batch: string, extra: Partial<AgentRunInput>) => async (n: number) => {
      const started = performance.now();
      const handle = await startRun(client, { agent: 'bench', task: `fairness bench: ${batch} run ${n}`, ...extra }, {
        taskQueue: agentWorker.taskQueue,
        workflowId: `${agentWorker.taskQueue}-${batch}-${n}`,
      });
      return { handle, started };
    };
    const first = await startMany(firstCount, start('first', kase.first));
    const second = await startMany(secondCount, start('second', kase.second));
    const [firstTimes, secondTimes] = await Promise.all([finishTimes(first), finishTimes(second)]);
    const wallSeconds = (performance.now() - began) / 1000;
    const histories = await Promise.all(second.map(({ handle }) => handle.fetchHistory()));
    return { kase, round, first: firstTimes, second: secondTimes, wallSeconds, activityPriority: activityPriority(histories[0]!), waits: histories.map(queueWaits) };
  } finally {
    agentWorker.worker.shutdown();
    await running;
    await agentWorker.close();
    await connection.close();
  }
}

type Started = { handle: WorkflowHandle; started: number };

/** Calls `start(n)` for n in [0, count), `START_CONCURRENCY` at a time; results in order of n. */
async function startMany(count: number, start: (n: number) => Promise<Started>): Promise<Started[]> {
  const results: Started[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(START_CONCURRENCY, count) }, async () => {
      while (next < count) {
        const n = next++;
        results[n] = await start(n);
      }
    }),
  );
  return results;
}

function finishTimes(runs: Started[]): Promise<Timed[]> {
  return Promise.all(runs.map(async ({ handle, started }) => {
    await handle.result();
    return { started, finished: performance.now() };
  }));
}

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

/** The priority of the run's first ActivityTaskScheduled event: proof that its activities carry the run's keys. */
function activityPriority(history: History): string {
  const scheduled = history.events?.find((e) => e.activityTaskScheduledEventAttributes)?.activityTaskScheduledEventAttributes;
  const priority = scheduled?.priority;
  if (!priority || (!priority.priorityKey && !priority.fairnessKey)) return 'none';
  return [priority.priorityKey ? `priority ${priority.priorityKey}` : '', priority.fairnessKey ? `key ${priority.fairnessKey}` : ''].filter(Boolean).join(', ');
}

function queueWaits(history: History): QueueWaits {
  const at = new Map<string, number>();
  const waits: QueueWaits = { workflowTaskMs: 0, firstWorkflowTaskMs: Number.NaN, activityMs: 0, workflowTaskTimeouts: 0 };
  for (const event of history.events ?? []) {
    const time = event.eventTime ? tsToMs(event.eventTime) : 0;
    const id = String(event.eventId);
    if (event.workflowTaskScheduledEventAttributes || event.activityTaskScheduledEventAttributes) at.set(id, time);
    const wft = event.workflowTaskStartedEventAttributes;
    if (wft) {
      const wait = time - (at.get(String(wft.scheduledEventId)) ?? time);
      waits.workflowTaskMs += wait;
      if (Number.isNaN(waits.firstWorkflowTaskMs)) waits.firstWorkflowTaskMs = wait;
    }
    const activity = event.activityTaskStartedEventAttributes;
    if (activity) waits.activityMs += time - (at.get(String(activity.scheduledEventId)) ?? time);
    if (event.workflowTaskTimedOutEventAttributes) waits.workflowTaskTimeouts += 1;
  }
  return waits;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const durations = (runs: Timed[]) => runs.map((r) => r.finished - r.started);
const lastFinish = (runs: Timed[]) => Math.max(...runs.map((r) => r.finished));

/** How many of the first batch's runs finished before the last run of the second: 0 is "served at once", all is "served last". */
const overtakenBy = (o: Outcome) => o.first.filter((r) => r.finished < lastFinish(o.second)).length;

function summary(o: Outcome): string {
  return `second batch p50 ${seconds(percentile(durations(o.second), 50))} s, max ${seconds(Math.max(...durations(o.second)))} s; ${overtakenBy(o)} of ${o.first.length} first-batch runs finished before its last; wall ${o.wallSeconds.toFixed(1)} s`;
}

function rows(outcomes: Outcome[], scenario: Case['scenario']): (string | number)[][] {
  return outcomes
    .filter((o) => o.kase.scenario === scenario)
    .map((o) => {
      const late = durations(o.second);
      const early = durations(o.first);
      const gap = lastFinish(o.second) - lastFinish(o.first);
      return [
        o.round,
        o.kase.label,
        o.kase.server === 'fairness' ? 'matching.enableFairness=true' : 'project default',
        seconds(percentile(late, 50)),
        seconds(Math.max(...late)),
        seconds(percentile(early, 50)),
        seconds(Math.max(...early)),
        `${gap <= 0 ? '' : '+'}${seconds(gap)}`,
        `${overtakenBy(o)} / ${o.first.length}`,
        seconds(percentile(o.waits.map((w) => w.workflowTaskMs), 50)),
        seconds(percentile(o.waits.map((w) => w.firstWorkflowTaskMs), 50)),
        seconds(percentile(o.waits.map((w) => w.activityMs), 50)),
        o.waits.reduce((sum, w) => sum + w.workflowTaskTimeouts, 0),
        o.activityPriority,
        o.wallSeconds.toFixed(1),
      ];
    });
}

function body(outcomes: Outcome[]): string {
  const columns = (late: string, early: string) => [
    'round',
    'case',
    'server',
    `${late} p50 s`,
    `${late} max s`,
    `${early} p50 s`,
    `${early} max s`,
    `last ${late} − last ${early} s`,
    `${early} runs done before the last ${late}`,
    `${late} queued for workflow tasks p50 s`,
    `of which first workflow task p50 s`,
    `${late} queued for activities p50 s`,
    `${late} workflow task timeouts`,
    `${late}'s activity priority (history)`,
    'wall s',
  ];
  return [
    `One worker (${ACTIVITY_SLOTS} activity slots, 2 workflow task slots), each run one model call answered after ${LATENCY_MS} ms by the fake`,
    'Messages API, then complete_task: the model calls queue in the server\'s matching. A run\'s time is from its start call to its',
    `result; the second batch starts once the first batch's ${START_CONCURRENCY}-at-a-time starts have returned. Each case has its own task queue and worker;`,
    `the cases ran one after another in the order listed, alternating with and without, ${ROUNDS} round(s), on a 2-core machine shared with other`,
    'jobs (timings are noisy; compare within a round). "Project default" is the dev server as `npm start` and the tests run it;',
    '`matching.enableFairness=true` is that plus fairness turned on (`--dynamic-config-value`). The "queued" columns are read from the',
    'late runs\' histories: scheduled to started, summed over a run\'s workflow tasks and over its activities; a workflow task timeout is',
    'one that sat on the worker\'s sticky queue past its schedule-to-start timeout and went back to the task queue.',
    '',
    `**Fairness.** Tenant A starts ${A_RUNS} runs, then tenant B ${B_RUNS}.`,
    '',
    table(columns('B', 'A'), rows(outcomes, 'fairness')),
    '',
    `**Priority.** ${LOW_RUNS} runs start, then ${HIGH_RUNS} more ("late"); with priority the late ones are priority 1 and the rest 5.`,
    '',
    table(columns('late', 'rest'), rows(outcomes, 'priority')),
  ].join('\n');
}

function commandLine(): string {
  return `npm run bench:fairness -- --a-runs ${A_RUNS} --b-runs ${B_RUNS} --low-runs ${LOW_RUNS} --high-runs ${HIGH_RUNS} --latency ${LATENCY_MS} --activity-slots ${ACTIVITY_SLOTS} --rounds ${ROUNDS}`;
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
