// History events and bytes of a long run with 5 KB tool outputs: this runtime (delta passing,
// compaction, continue-as-new; summed over every link of the chain) against the naive design that
// passes the whole conversation into every model activity and never continues as new. The naive run
// goes on until Temporal stops it (or reaches the same iteration count).
//
//   npm run bench:history -- [--iterations 1000] [--output-bytes 5000] [--window 100]
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { buildSystemPrompt } from '../src/runtime/agents/system-prompt';
import { startRun } from '../src/client/start-run';
import { runChain, type ChainLink } from '../test/support/run-chain';
import { callId, stepOf } from '../test/support/step-script';
import { billableActions, bytesPerIteration, largestEvent, windows } from './history/history-profile';
import { createNaiveActivities } from './naive/naive-activities';
import type { naiveAgentRun } from './naive/naive-workflow';
import { benchWorker, kib, LARGE_MESSAGES, mib, report, sizeArg, startBenchEnv, table, uniqueId } from './support/bench-env';
import { benchAgent, bulkTool } from './support/bench-tools';
import { startFakeModel } from './support/fake-model';

const ITERATIONS = sizeArg('iterations', 1_000);
const OUTPUT_BYTES = sizeArg('output-bytes', 5_000);
const WINDOW = sizeArg('window', 100);
const MIB = 1024 * 1024;
const LIMITS = { warnBytes: 10 * MIB, errorBytes: 50 * MIB, errorEvents: 51_200, payloadBytes: 2 * MIB };

async function run(): Promise<void> {
  const model = await startFakeModel((body) => {
    const step = stepOf({ body });
    return step < ITERATIONS
      ? [{ type: 'tool_use', id: callId(step), name: 'bulk', input: { n: step, size: OUTPUT_BYTES } }]
      : [{ type: 'tool_use', id: callId(step), name: 'complete_task', input: { summary: 'done', status: 'success' } }];
  });
  const env = await startBenchEnv();
  const agent = benchAgent('history', ['bulk']);
  const worker = await benchWorker(env, model.baseUrl, { agents: [agent], tools: [bulkTool] });

  // This runtime, with its defaults: 200k-token window, compaction at 60%, continue-as-new at 3,000 events / 3 MiB.
  const started = performance.now();
  let chain: ChainLink[] = [];
  let compactions = 0;
  await worker.worker.runUntil(async () => {
    const handle = await startRun(worker.client, { agent: 'history', task: 'history bench: ours' }, { taskQueue: worker.taskQueue, workflowId: uniqueId('history') });
    const result = await handle.result();
    if (result.iterations !== ITERATIONS + 1) throw new Error(`run ended after ${result.iterations} iterations`);
    chain = await runChain(worker.client, handle.workflowId, handle.firstExecutionRunId);
  });
  const oursSeconds = (performance.now() - started) / 1000;
  compactions = model.served.summarizer;
  await worker.close();

  // The naive design, on its own bundle and task queue.
  const naive = await runNaive(env.server.address, model.baseUrl, worker.registry.modelTools('history'), buildSystemPrompt(agent.systemPrompt));
  await env.close();
  await model.close();

  const oursEvents = chain.flatMap((l) => l.history.events ?? []);
  const oursPer = bytesPerIteration(oursEvents, 'callModel');
  const naivePer = bytesPerIteration(naive.events, 'callModelWithConversation');
  const totalBytes = chain.reduce((a, l) => a + l.bytes, 0);
  const totalEvents = chain.reduce((a, l) => a + l.events, 0);
  const oursActions = billableActions(oursEvents);
  const naiveActions = billableActions(naive.events);
  const perIteration = (n: number, iterations: number) => (n / Math.max(1, iterations)).toFixed(2);

  const linkRows = chain.map((l, i) => {
    const per = bytesPerIteration(l.history.events ?? [], 'callModel');
    return [i, per.length, l.events, mib(l.bytes), kib(l.bytes / Math.max(1, per.length)), kib(largestEvent(l.history.events ?? []))];
  });
  const fit = linearFit(naivePer);
  const projected1000 = Array.from({ length: ITERATIONS }, (_, i) => fit.a + fit.b * (i + 1)).reduce((a, b) => a + b, 0);
  const crossing = (limit: number) => {
    let sum = 0;
    for (let i = 1; i < 1_000_000; i += 1) if ((sum += fit.a + fit.b * i) >= limit) return i;
    return Number.NaN;
  };
  const windowRows = windows(oursPer, WINDOW).map((w, i) => {
    const n = windows(naivePer, WINDOW)[i];
    return [`${w.from}-${w.to}`, kib(w.mean), n ? `${kib(n.mean)} (${n.from}-${n.to})` : '(naive run had stopped)'];
  });

  report(
    'history',
    `npm run bench:history -- --iterations ${ITERATIONS} --output-bytes ${OUTPUT_BYTES}`,
    [
      `A ${ITERATIONS}-iteration run, one tool call per iteration returning ${OUTPUT_BYTES} characters; zero-latency fake model whose usage counts the whole request (so compaction triggers as in production).`,
      `Bytes are protobuf-encoded history events as the server returns them.`,
      '',
      '## Totals',
      '',
      table(
        ['design', 'iterations', 'runs (links)', 'events', 'history MiB', 'events / iteration', 'KiB / iteration', 'largest event KiB', 'billable actions / iteration (est.)', 'wall s', 'outcome'],
        [
          ['durable-agent (delta + compaction + continue-as-new)', oursPer.length, chain.length, totalEvents, mib(totalBytes), (totalEvents / oursPer.length).toFixed(1), kib(totalBytes / oursPer.length), kib(Math.max(...chain.map((l) => largestEvent(l.history.events ?? [])))), perIteration(oursActions.total, oursPer.length), oursSeconds.toFixed(0), `completed; ${compactions} compactions`],
          ['naive (whole conversation into every model activity)', naivePer.length, 1, naive.events.length, mib(naive.bytes), (naive.events.length / Math.max(1, naivePer.length)).toFixed(1), kib(naive.bytes / Math.max(1, naivePer.length)), kib(largestEvent(naive.events)), perIteration(naiveActions.total, naivePer.length), naive.seconds.toFixed(0), naive.outcome],
        ],
      ),
      '',
      `Billable actions (Temporal Cloud, estimated from the histories; queries and heartbeats are not in a history): this runtime ${oursActions.total} in all,`,
      `${Object.entries(oursActions.byKind).map(([k, n]) => `${k} ${n}`).join(', ')}. Target (issue 13): at most 3 per iteration: ${oursActions.total / Math.max(1, oursPer.length) <= 3 ? 'met' : 'NOT met'}.`,
      '',
      '## This runtime, per link of the continue-as-new chain',
      '',
      table(['link', 'iterations', 'events', 'MiB', 'KiB / iteration', 'largest event KiB'], linkRows),
      '',
      `Every link under 10 MiB: ${chain.every((l) => l.bytes < LIMITS.warnBytes) ? 'yes' : 'NO'} (largest ${mib(Math.max(...chain.map((l) => l.bytes)))} MiB).`,
      '',
      `## Bytes per iteration as the run grows (windows of ${WINDOW})`,
      '',
      table(['iterations', 'durable-agent KiB / iteration', 'naive KiB / iteration'], windowRows),
      '',
      '## How long the naive design survives',
      '',
      `Measured: ${naive.outcome} after ${naivePer.length} iterations, at ${naive.events.length} events and ${mib(naive.bytes)} MiB of history.`,
      `Fitted growth: ${kib(fit.a)} KiB + ${(fit.b / 1024).toFixed(2)} KiB × i for iteration i, so the history passes Temporal's 10 MiB warning at iteration ${crossing(LIMITS.warnBytes)} and its 50 MiB limit at iteration ${crossing(LIMITS.errorBytes)}; ${ITERATIONS} iterations would need ${mib(projected1000, 0)} MiB. One model input reaches the 2 MiB payload limit at iteration ${Math.ceil(LIMITS.payloadBytes / Math.max(1, fit.b))}.`,
    ].join('\n'),
  );
}

/** Runs the naive workflow until it completes or Temporal ends it, and fetches its history. */
async function runNaive(address: string, baseUrl: string, toolSpecs: unknown[], system: string) {
  const taskQueue = uniqueId('naive');
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'naive', 'naive-workflow.ts'), logger: new DefaultLogger('ERROR') }),
    activities: createNaiveActivities({ baseUrl, tools: [bulkTool], toolSpecs, system }),
  });
  const clientConnection = await Connection.connect({ address, channelArgs: LARGE_MESSAGES });
  const client = new Client({ connection: clientConnection });
  const started = performance.now();
  let outcome = 'completed';
  const workflowId = uniqueId('naive');
  await worker.runUntil(async () => {
    const handle = await client.workflow.start<typeof naiveAgentRun>('naiveAgentRun', {
      taskQueue,
      workflowId,
      args: [{ task: 'history bench: naive', maxIterations: ITERATIONS + 1 }],
    });
    try {
      await handle.result();
    } catch (error) {
      const cause = (error as { cause?: Error }).cause;
      outcome = `stopped by Temporal: ${cause?.message ?? (error as Error).message}`;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const bytes = temporal.api.history.v1.History.encode(history).finish().length;
  await clientConnection.close();
  await connection.close();
  return { events: history.events ?? [], bytes, seconds, outcome };
}

/** Least-squares line through (i, value_i), i from 1. */
function linearFit(values: readonly number[]): { a: number; b: number } {
  const n = values.length;
  if (n < 2) return { a: values[0] ?? 0, b: 0 };
  const xs = values.map((_, i) => i + 1);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = values.reduce((a, b) => a + b, 0) / n;
  const b = xs.reduce((acc, x, i) => acc + (x - mx) * (values[i]! - my), 0) / xs.reduce((acc, x) => acc + (x - mx) ** 2, 0);
  return { a: my - b * mx, b };
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
