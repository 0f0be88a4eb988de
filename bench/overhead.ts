// Per-iteration orchestration overhead, one no-op tool call per turn, zero-latency model:
// this runtime on a local dev server, the same loop in-process without durability (the floor), and
// LangGraph JS with its SQLite checkpointer. One iteration is the time from one model request to the
// next, stamped by the fake API, so all three are timed by the same clock at the same point.
//
//   npm run bench:overhead -- [--iterations 200] [--rounds 3]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { buildSystemPrompt } from '../src/agents/system-prompt';
import { startRun } from '../src/client/start-run';
import { callId, stepOf } from '../test/support/step-script';
import { createBareActivities } from './overhead/bare-activities';
import type { bareLoop } from './overhead/bare-workflow';
import { langGraphLoop } from './overhead/langgraph-loop';
import { plainLoop } from './overhead/plain-loop';
import { benchWorker, type BenchEnv, gaps, ms, percentile, report, sizeArg, startBenchEnv, table, uniqueId } from './support/bench-env';
import { benchAgent, noopActivityTool, noopTool } from './support/bench-tools';
import { startFakeModel, taskOf } from './support/fake-model';

const ITERATIONS = sizeArg('iterations', 200);
const ROUNDS = sizeArg('rounds', 3);
/** Iterations dropped at the start of each series (connection set-up, JIT warm-up). */
const WARMUP = 5;

type System =
  | 'durable-agent, read tool as a local activity (Temporal dev server)'
  | 'durable-agent, read tool as an activity task (before local quick tools)'
  | 'bare Temporal workflow, same server (2 activities / iteration)'
  | 'plain loop (no durability)'
  | 'LangGraph + SQLite checkpointer';

async function run(): Promise<void> {
  const arrivals = new Map<string, number[]>();
  const model = await startFakeModel((body) => {
    const task = taskOf(body);
    const stamps = arrivals.get(task) ?? [];
    stamps.push(performance.now());
    arrivals.set(task, stamps);
    const step = stepOf({ body });
    const tool = task.includes('activity task') ? 'noop_activity' : 'noop';
    return step < ITERATIONS
      ? [{ type: 'tool_use', id: callId(step), name: tool, input: { n: step } }]
      : [{ type: 'tool_use', id: callId(step), name: 'complete_task', input: { summary: 'done', status: 'success' } }];
  });
  const env = await startBenchEnv();
  const agent = benchAgent('overhead', ['noop']);
  const remoteAgent = benchAgent('overhead-activity', ['noop_activity']);
  const worker = await benchWorker(env, model.baseUrl, { agents: [agent, remoteAgent], tools: [noopTool, noopActivityTool] });
  const spec = {
    baseUrl: model.baseUrl,
    tools: [noopTool],
    toolSpecs: worker.registry.modelTools('overhead'),
    system: buildSystemPrompt(agent.systemPrompt),
  };
  const bare = await bareTemporalWorker(env, model.baseUrl);
  const graph = langGraphLoop({ ...spec, sqliteFile: path.join(mkdtempSync(path.join(tmpdir(), 'bench-lg-')), 'checkpoints.sqlite') });

  const series = new Map<System, number[]>();
  const record = (system: System, task: string) => {
    const list = series.get(system) ?? [];
    list.push(...gaps(arrivals.get(task) ?? []).slice(WARMUP));
    series.set(system, list);
  };

  const durableRun = async (agentName: string, task: string) => {
    const handle = await startRun(worker.client, { agent: agentName, task }, { taskQueue: worker.taskQueue, workflowId: uniqueId('overhead') });
    const result = await handle.result();
    if (result.iterations !== ITERATIONS + 1) throw new Error(`run ended after ${result.iterations} iterations`);
  };
  const systems: Record<System, (task: string) => Promise<unknown>> = {
    'durable-agent, read tool as a local activity (Temporal dev server)': (task) => durableRun('overhead', task),
    'durable-agent, read tool as an activity task (before local quick tools)': (task) => durableRun('overhead-activity', task),
    'bare Temporal workflow, same server (2 activities / iteration)': (task) => bare.run(task),
    'plain loop (no durability)': (task) => plainLoop({ ...spec, task }),
    'LangGraph + SQLite checkpointer': (task) => graph.run(task, uniqueId('thread')),
  };

  await runBoth(worker.worker, bare.worker, async () => {
    // Interleaved rounds, so a noisy moment on the shared machine hits every system alike.
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const [system, go] of Object.entries(systems) as [System, (task: string) => Promise<unknown>][]) {
        const task = `overhead ${system} round ${round}`;
        const started = performance.now();
        await go(task);
        console.error(`round ${round}: ${system}: ${ITERATIONS} iterations in ${ms(performance.now() - started, 0)} ms`);
        record(system, task);
      }
    }
  });
  await worker.close();
  await bare.close();
  await env.close();
  await model.close();

  const floor = percentile(series.get('plain loop (no durability)')!, 50);
  const temporalFloor = percentile(series.get('bare Temporal workflow, same server (2 activities / iteration)')!, 50);
  const rows = [...series.entries()].map(([system, values]) => {
    const p50 = percentile(values, 50);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return [system, values.length, ms(p50, 2), ms(percentile(values, 95), 2), ms(mean, 2), ms(p50 - floor, 2), ms(p50 - temporalFloor, 2)];
  });
  report(
    'overhead',
    `npm run bench:overhead -- --iterations ${ITERATIONS} --rounds ${ROUNDS}`,
    [
      `One iteration = one model request (zero-latency fake Messages API over HTTP, real SDK) + one no-op tool call.`,
      `${ROUNDS} interleaved rounds of ${ITERATIONS} iterations per system; the first ${WARMUP} iterations of each round are dropped.`,
      '',
      table(['system', 'iterations timed', 'p50 ms', 'p95 ms', 'mean ms', 'p50 above the plain loop, ms', 'p50 above bare Temporal, ms'], rows),
      '',
      `Target (issue 13): this runtime at or below 50 ms p50 per iteration with a read tool. The bare Temporal row is the same`,
      `server and SDK with nothing of this runtime (two activity tasks per iteration). The "activity task" row runs the same`,
      `no-op declared \`quick: false\`, so each call is an activity task as before local quick tools: the before/after, side by side.`,
    ].join('\n'),
  );
}

/** Runs `body` while both workers poll. */
async function runBoth(a: Worker, b: Worker, body: () => Promise<void>): Promise<void> {
  await a.runUntil(b.runUntil(body));
}

async function bareTemporalWorker(env: BenchEnv, baseUrl: string) {
  const taskQueue = uniqueId('bare');
  const connection = await NativeConnection.connect({ address: env.server.address });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'overhead', 'bare-workflow.ts'), logger: new DefaultLogger('ERROR') }),
    activities: createBareActivities(baseUrl),
  });
  const clientConnection = await Connection.connect({ address: env.server.address });
  const client = new Client({ connection: clientConnection });
  return {
    worker,
    run: (task: string) => client.workflow.execute<typeof bareLoop>('bareLoop', { taskQueue, workflowId: uniqueId('bare'), args: [task] }),
    async close() {
      await clientConnection.close();
      await connection.close();
    },
  };
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
