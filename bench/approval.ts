// Approval latency: from a person's decision being sent to the approved tool starting. The model
// asks for one gated (write-scope) tool call per turn. When the worker reports the call parked (the
// approvalRequested lifecycle event), the bench waits until the server has the workflow task that
// parked it completed (no workflow task pending: the run is idle, as it is when a person decides),
// then sends the decision and stamps the time; the tool stamps the time it starts. Both clocks are
// this process's. Measured for the `approval` signal and for the `decideApproval` update (which also
// waits for the run's answer), side by side in one run on three dev servers (see SERVERS).
//
//   npm run bench:approval -- [--approvals 50]
import type { WorkflowHandle } from '@temporalio/client';
import { startRun } from '../src/client/start-run';
import type { LifecycleEventOf } from '../src/contract/lifecycle-event';
import { approvalSignal, decideApprovalUpdate } from '../src/contract/agent-run-api';
import { callId, stepOf } from '../test/support/step-script';
import { benchWorker, TEMPORAL_DEFAULT_QUEUE_RATES, ms, percentile, report, sizeArg, startBenchEnv, table, uniqueId } from './support/bench-env';
import { benchAgent, gatedProbeTool } from './support/bench-tools';
import { startFakeModel } from './support/fake-model';

const APPROVALS = sizeArg('approvals', 50);
type Via = 'signal' | 'update';
/** Temporal's default history queue-reader rate (20 loads a second per shard), this project's dev server, and that with eager activities. */
const SERVERS = [
  { name: "Temporal's default queue-reader rate", dynamicConfig: TEMPORAL_DEFAULT_QUEUE_RATES },
  { name: 'dev server as npm start runs it', dynamicConfig: {} },
  { name: 'the same, with eager activities', dynamicConfig: { 'system.enableActivityEagerExecution': true } },
];

interface Figures {
  toTool: number[];
  toEvent: number[];
}

/** Resolves once the server has no workflow task pending for the run: it is parked, waiting. */
async function settled(handle: WorkflowHandle): Promise<void> {
  for (;;) {
    const { raw } = await handle.describe();
    if (!raw.pendingWorkflowTask) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function measure(serverName: string, dynamicConfig: Record<string, unknown>): Promise<Map<Via, Figures>> {
  const model = await startFakeModel((body) => {
    const step = stepOf({ body });
    return step < APPROVALS
      ? [{ type: 'tool_use', id: callId(step), name: 'gated_noop', input: { n: step } }]
      : [{ type: 'tool_use', id: callId(step), name: 'complete_task', input: { summary: 'done', status: 'success' } }];
  });
  const env = await startBenchEnv({ dynamicConfig });

  const sent = new Map<string, number>();
  const toolStarted = new Map<string, number>();
  const startedEvent = new Map<string, number>();
  const handles = new Map<string, { handle: WorkflowHandle; via: Via }>();
  const key = (workflowId: string, n: number | string) => `${workflowId}/${n}`;
  const stepOfCall = (id: unknown) => Number(/^toolu_s(\d+)_/.exec(String(id))?.[1]);

  const decide = async (event: LifecycleEventOf<'approvalRequested'>) => {
    const run = handles.get(event.workflowId);
    if (!run) return;
    const id = event.data.callId;
    await settled(run.handle);
    sent.set(key(event.workflowId, stepOfCall(id)), performance.now());
    const decision = { callId: id, decision: 'approve' as const, approver: 'bench' };
    if (run.via === 'signal') await run.handle.signal(approvalSignal, decision);
    else await run.handle.executeUpdate(decideApprovalUpdate, { args: [decision] });
  };
  const worker = await benchWorker(env, model.baseUrl, {
    agents: [benchAgent('approver', ['gated_noop'])],
    // The tool cannot see its run; runs go one at a time, so the current one is the only one.
    tools: [gatedProbeTool((n) => toolStarted.set(key(current, n), performance.now()))],
    lifecycleHandlers: [
      {
        handle(event) {
          if (event.name === 'approvalRequested') void decide(event).catch((error) => console.error('decision failed:', error));
          if (event.name === 'toolStarted') startedEvent.set(key(event.workflowId, stepOfCall(event.data.callId)), performance.now());
        },
      },
    ],
  });
  let current = '';

  const results = new Map<Via, Figures>();
  await worker.worker.runUntil(async () => {
    for (const via of ['signal', 'update'] as Via[]) {
      const workflowId = uniqueId(`approval-${via}`);
      current = workflowId;
      const handle = await startRun(worker.client, { agent: 'approver', task: `approval bench via ${via} (${serverName})` }, { taskQueue: worker.taskQueue, workflowId });
      handles.set(workflowId, { handle, via });
      const result = await handle.result();
      if (result.iterations !== APPROVALS + 1) throw new Error(`run ended after ${result.iterations} iterations`);
      const figures: Figures = { toTool: [], toEvent: [] };
      for (let n = 0; n < APPROVALS; n += 1) {
        const at = sent.get(key(workflowId, n));
        if (at === undefined) continue;
        figures.toTool.push(toolStarted.get(key(workflowId, n))! - at);
        figures.toEvent.push(startedEvent.get(key(workflowId, n))! - at);
      }
      results.set(via, figures);
    }
  });
  await worker.close();
  await env.close();
  await model.close();
  return results;
}

async function run(): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const server of SERVERS) {
    const results = await measure(server.name, server.dynamicConfig);
    for (const [via, r] of results) {
      rows.push(
        [server.name, `${via} sent → tool code starts (activity side)`, r.toTool.length, ms(percentile(r.toTool, 50)), ms(percentile(r.toTool, 95)), ms(Math.max(...r.toTool))],
        [server.name, `${via} sent → toolStarted lifecycle event (worker sink)`, r.toEvent.length, ms(percentile(r.toEvent, 50)), ms(percentile(r.toEvent, 95)), ms(Math.max(...r.toEvent))],
      );
    }
  }
  report(
    'approval',
    `npm run bench:approval -- --approvals ${APPROVALS}`,
    [
      `${APPROVALS} approvals per mode, one parked write-scope tool call per turn, local dev server, zero-latency fake model.`,
      'The decision is sent once the run is parked (no workflow task pending on the server); the clock stops when the tool code runs.',
      "Temporal's default lets each history shard's queue reader load tasks 20 times a second; the dev server has one shard,",
      'so a run that moves quickly waits about 40 ms per workflow task once the burst is spent. npm start, the compose file',
      'and `npm run cluster` set 1,000 (scripts/temporal-dev-server.ts, deploy/temporal/dynamicconfig.yaml). Eager activities',
      "(`system.enableActivityEagerExecution`) hand the approved call's activity task back in the reply to the workflow task.",
      '',
      table(['server', 'path', 'approvals', 'p50 ms', 'p95 ms', 'max ms'], rows),
    ].join('\n'),
  );
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
