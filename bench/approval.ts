// Approval latency: from a person's decision being sent to the approved tool starting. The model
// asks for one gated (write-scope) tool call per turn; as soon as the worker reports the call parked
// (the approvalRequested lifecycle event), the bench sends the decision and stamps the time; the tool
// stamps the time it starts. Both clocks are this process's. Measured for the `approval` signal and
// for the `decideApproval` update (which also waits for the run's answer).
//
//   npm run bench:approval -- [--approvals 50]
import type { WorkflowHandle } from '@temporalio/client';
import { startRun } from '../src/client/start-run';
import type { LifecycleEvent } from '../src/lifecycle/lifecycle-event';
import { approvalSignal, decideApprovalUpdate } from '../src/workflows/definitions';
import { callId, stepOf } from '../test/support/step-script';
import { benchWorker, ms, percentile, report, sizeArg, startBenchEnv, table, uniqueId } from './support/bench-env';
import { benchAgent, gatedProbeTool } from './support/bench-tools';
import { startFakeModel } from './support/fake-model';

const APPROVALS = sizeArg('approvals', 50);
type Via = 'signal' | 'update';

async function run(): Promise<void> {
  const model = await startFakeModel((body) => {
    const step = stepOf({ body });
    return step < APPROVALS
      ? [{ type: 'tool_use', id: callId(step), name: 'gated_noop', input: { n: step } }]
      : [{ type: 'tool_use', id: callId(step), name: 'complete_task', input: { summary: 'done', status: 'success' } }];
  });
  const env = await startBenchEnv();

  const sent = new Map<string, number>();
  const toolStarted = new Map<string, number>();
  const startedEvent = new Map<string, number>();
  const handles = new Map<string, { handle: WorkflowHandle; via: Via }>();
  const key = (workflowId: string, n: number | string) => `${workflowId}/${n}`;

  const decide = async (event: LifecycleEvent) => {
    const run = handles.get(event.workflowId);
    if (!run) return;
    const id = String(event.data.callId);
    const n = Number(/^toolu_s(\d+)_/.exec(id)?.[1]);
    sent.set(key(event.workflowId, n), performance.now());
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
          if (event.name === 'toolStarted') startedEvent.set(key(event.workflowId, Number(/^toolu_s(\d+)_/.exec(String(event.data.callId))?.[1])), performance.now());
        },
      },
    ],
  });
  let current = '';

  const results = new Map<Via, { toTool: number[]; toEvent: number[]; seconds: number }>();
  await worker.worker.runUntil(async () => {
    for (const via of ['signal', 'update'] as Via[]) {
      const workflowId = uniqueId(`approval-${via}`);
      current = workflowId;
      const begun = performance.now();
      const handle = await startRun(worker.client, { agent: 'approver', task: `approval bench via ${via}` }, { taskQueue: worker.taskQueue, workflowId });
      handles.set(workflowId, { handle, via });
      const result = await handle.result();
      if (result.iterations !== APPROVALS + 1) throw new Error(`run ended after ${result.iterations} iterations`);
      const toTool: number[] = [];
      const toEvent: number[] = [];
      for (let n = 0; n < APPROVALS; n += 1) {
        const at = sent.get(key(workflowId, n));
        if (at === undefined) continue;
        toTool.push(toolStarted.get(key(workflowId, n))! - at);
        toEvent.push(startedEvent.get(key(workflowId, n))! - at);
      }
      results.set(via, { toTool, toEvent, seconds: (performance.now() - begun) / 1000 });
    }
  });
  await worker.close();
  await env.close();
  await model.close();

  const rows = [...results.entries()].flatMap(([via, r]) => [
    [`${via} sent → tool code starts (activity side)`, r.toTool.length, ms(percentile(r.toTool, 50)), ms(percentile(r.toTool, 95)), ms(Math.max(...r.toTool))],
    [`${via} sent → toolStarted lifecycle event (worker sink)`, r.toEvent.length, ms(percentile(r.toEvent, 50)), ms(percentile(r.toEvent, 95)), ms(Math.max(...r.toEvent))],
  ]);
  report(
    'approval',
    `npm run bench:approval -- --approvals ${APPROVALS}`,
    [
      `${APPROVALS} approvals per mode, one parked write-scope tool call per turn, local dev server, zero-latency fake model.`,
      'The decision is sent as soon as the worker reports the call parked; the clock stops when the tool code runs.',
      '',
      table(['path', 'approvals', 'p50 ms', 'p95 ms', 'max ms'], rows),
    ].join('\n'),
  );
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
