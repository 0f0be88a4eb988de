// Proves, against the real dev server, that a run's lifecycle events reach worker-side handlers once
// each, and that replaying the run's history does not fire them again.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { Worker, type InjectedSinks, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../../src/runtime/audit/audit-record';
import { verifyAuditFile } from '../../../src/runtime/audit/verify-audit';
import type { LifecycleEvent, LifecycleEventOf, LifecycleSinks } from '../../../src/contract/lifecycle-event';
import { lifecycleSinks } from '../../../src/runtime/lifecycle/lifecycle-sink';
import { MetricsCollector } from '../../../src/runtime/lifecycle/metrics-collector';
import type { agentRun } from '../../../src/workflows/agent-run';
import { approvalSignal } from '../../../src/contract/agent-run-api';
import { fail, reply, startFakeAnthropic, toolCall, type FakeAnthropic } from '../../support/fake-anthropic';
import { bundleAgentWorkflows, waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { uniqueId } from '../../support/temporal';

describe('lifecycle events on a real worker', () => {
  let fake: FakeAnthropic;
  let workflowBundle: WorkflowBundle;
  let dir: string;
  /** What the worker's handlers received: the built-in sink, after its deduper. */
  const events: LifecycleEvent[] = [];
  /** What the SDK handed to the sink before the deduper: at-least-once. */
  const raw: LifecycleEvent[] = [];
  const metrics = new MetricsCollector();
  let auditFile: string;
  let approvedRun: WorkflowHandle<typeof agentRun>;
  let failedRun: WorkflowHandle<typeof agentRun>;
  let approvedHistory: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;
  let failedHistory: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

  // One worker serves both runs. maxCachedWorkflows: 0 makes it replay a run's whole history on
  // every workflow task, so any event that were re-fired on replay would show up as a duplicate.
  beforeAll(async () => {
    [fake, workflowBundle] = await Promise.all([startFakeAnthropic(), bundleAgentWorkflows()]);
    dir = await mkdtemp(path.join(tmpdir(), 'lifecycle-'));
    // Outside the workspace: a worker refuses an audit log its tools could change.
    auditFile = path.join(await mkdtemp(path.join(tmpdir(), 'lifecycle-audit-')), 'audit.log');
    const approvedTask = uniqueId('approved');
    const failingTask = uniqueId('failing');
    fake.script(approvedTask, [
      reply(toolCall('list_files', { path: '.' }), toolCall('write_file', { path: 'out.txt', content: 'hello' })),
      reply(toolCall('complete_task', { summary: 'wrote out.txt', status: 'success' })),
    ]);
    fake.script(failingTask, [fail(400)]);

    await withAgentWorker(
      {
        fake,
        workflowBundle,
        workspace: dir,
        auditLog: auditFile,
        // The worker's own sink (with its deduper) behind a tap that records the raw stream first.
        workerOptions: { maxCachedWorkflows: 0, sinks: tapped(lifecycleSinks([{ handle: (e) => void events.push(e) }, metrics]), raw) },
      },
      async ({ start }) => {
        approvedRun = await start({ agent: 'general', task: approvedTask });
        // Waits on the delivered event rather than polling the status query: with no cache, every
        // query is another full replay competing with the run's own workflow tasks.
        const requested = await waitFor(
          async () => events.find((e): e is LifecycleEventOf<'approvalRequested'> => e.workflowId === approvedRun.workflowId && e.name === 'approvalRequested'),
          'the approvalRequested event',
        );
        await approvedRun.signal(approvalSignal, { callId: requested.data.callId, decision: 'approve', approver: 'alice' });
        await approvedRun.result();
        approvedHistory = await approvedRun.fetchHistory();
        failedRun = await start({ agent: 'general', task: failingTask });
        await failedRun.result().catch(() => undefined);
        failedHistory = await failedRun.fetchHistory();
        // Sinks run after each activation; the last one may land just after the result.
        await waitFor(async () => (events.some((e) => e.workflowId === failedRun.workflowId && e.name === 'agentEnded') ? true : undefined), 'the failed run\'s agentEnded');
      },
    );
  });

  afterAll(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  const of = (run: WorkflowHandle<typeof agentRun>) => events.filter((e) => e.workflowId === run.workflowId);
  it('delivers every step of an approved run to the handlers, in order', () => {
    const names = of(approvedRun).map((e) => e.name);
    expect(names).toEqual([
      'agentStarted',
      'iterationStarted',
      'approvalRequested',
      'approvalDecided',
      'toolStarted',
      'toolEnded',
      'toolStarted',
      'toolEnded',
      'iterationCompleted',
      'iterationStarted',
      'iterationCompleted',
      'agentEnded',
    ]);
    const toolEnded = of(approvedRun).filter((e) => e.name === 'toolEnded');
    expect(toolEnded.map((e) => e.data.tool)).toEqual(['list_files', 'write_file']);
    for (const e of toolEnded) {
      expect(e.data.success).toBe(true);
      expect(typeof e.data.durationMs).toBe('number');
    }
    const decided = of(approvedRun).find((e) => e.name === 'approvalDecided')!;
    expect(decided.data).toMatchObject({ tool: 'write_file', decision: 'approve', approver: 'alice' });
    expect(of(approvedRun).at(-1)!.data).toMatchObject({ status: 'completed', usage: { inputTokens: 200, outputTokens: 40 } });
  });

  it('delivers errorOccurred and agentEnded(failed) for a failing run', () => {
    const failed = of(failedRun);
    expect(failed.map((e) => e.name)).toEqual(['agentStarted', 'iterationStarted', 'errorOccurred', 'agentEnded']);
    expect(failed[2]!.data).toMatchObject({ type: 'ModelRequestRejected' });
    expect(failed[3]!.data).toMatchObject({ status: 'failed' });
  });

  it('hands each event to the handlers exactly once after the deduper, although the worker replayed the history on every task', () => {
    // With maxCachedWorkflows 0 every workflow task replays the run from its start, so a sink that
    // fired during replay would deliver agentStarted once per later task (six or more times here).
    const counts = countByKey(events);
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
    // Nothing was lost by deduping: every key the SDK handed over reached the handlers.
    expect(new Set(events.map((e) => e.key))).toEqual(new Set(raw.map((e) => e.key)));
    expect(counts.get(`${approvedRun.workflowId}/0/0/agentStarted/`)).toBe(1);
  });

  it('delivers a repeat from the raw sink only for a workflow task that was retried', () => {
    // At-least-once: an event arrives again only when the task that emitted it failed or timed out
    // and ran again. Without any retried task in a run's history, its raw stream is exactly once.
    for (const [run, history] of [[approvedRun, approvedHistory], [failedRun, failedHistory]] as const) {
      const retriedTasks = (history.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes || e.workflowTaskTimedOutEventAttributes).length;
      const repeats = [...countByKey(raw.filter((e) => e.workflowId === run.workflowId)).values()].reduce((sum, n) => sum + n - 1, 0);
      expect(repeats, `${run.workflowId}: ${repeats} repeated deliveries for ${retriedTasks} retried tasks`).toBeLessThanOrEqual(retriedTasks);
    }
  });

  it('fires nothing when the finished run is replayed from its history', async () => {
    const history = approvedHistory;
    const replayed: LifecycleEvent[] = [];
    await Worker.runReplayHistory({ workflowBundle, sinks: lifecycleSinks([{ handle: (e) => void replayed.push(e) }]) }, history, approvedRun.workflowId);
    expect(replayed).toEqual([]);

    // The control: the same replay with a sink that opts into replay calls does see the events, so
    // the empty list above comes from the sink's callDuringReplay: false, not from a replay that
    // never reached the emitting code.
    const seenAnyway: LifecycleEvent[] = [];
    const eager: InjectedSinks<LifecycleSinks> = {
      lifecycle: { emit: { fn: (_info, e: LifecycleEvent) => void seenAnyway.push(e), callDuringReplay: true } },
    };
    await Worker.runReplayHistory({ workflowBundle, sinks: eager }, history, approvedRun.workflowId);
    expect(seenAnyway.map((e) => e.key)).toEqual(of(approvedRun).map((e) => e.key));
  });

  it('drops a repeated key in the built-in sink and passes it through when deduping is turned off', () => {
    const seen: string[] = [];
    const event = { ...of(approvedRun)[0]! };
    const call = (sinks: InjectedSinks<LifecycleSinks>) => sinks.lifecycle.emit.fn({} as never, event);
    const deduped = lifecycleSinks([{ handle: (e) => void seen.push(`deduped:${e.key}`) }]);
    const rawSink = lifecycleSinks([{ handle: (e) => void seen.push(`raw:${e.key}`) }], { deduper: false });
    for (const sinks of [deduped, deduped, rawSink, rawSink]) call(sinks);
    expect(seen).toEqual([`deduped:${event.key}`, `raw:${event.key}`, `raw:${event.key}`]);
  });

  it('feeds the metrics collector from the real events, and the worker writes a verifiable audit log', async () => {
    const m = metrics.getMetrics();
    expect(m.toolCalls).toBe(2);
    expect(m.tools.write_file).toMatchObject({ calls: 1, successes: 1 });
    expect(m.tokens).toMatchObject({ inputTokens: 200, outputTokens: 40 });
    expect(m.approvals).toEqual({ requested: 1, decided: { approve: 1 } });
    expect(m.errors.byType).toEqual({ ModelRequestRejected: 1 });
    expect(m.runsEnded).toEqual({ completed: 1, failed: 1 });

    expect(await verifyAuditFile(auditFile)).toMatchObject({ ok: true });
    const records = (await readFile(auditFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as AuditRecord);
    const mine = records.filter((r) => r.run === approvedRun.workflowId);
    // Every decision of the turn is in (and on disk) before any of its calls runs.
    expect(mine).toEqual([
      expect.objectContaining({ kind: 'decision', tool: 'write_file', arguments: { path: 'out.txt', content: 'hello' }, decision: 'approve', approver: 'alice', via: 'signal' }),
      expect.objectContaining({ kind: 'call', tool: 'list_files', arguments: { path: '.' }, decision: 'policy_allow', via: 'policy', outcome: 'success' }),
      expect.objectContaining({ kind: 'call', tool: 'write_file', decision: 'approve', approver: 'alice', outcome: 'success', idempotencyKey: expect.stringContaining(approvedRun.workflowId) }),
    ]);
    expect(typeof mine[2]!.durationMs).toBe('number');
  });
});

function countByKey(list: readonly LifecycleEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of list) counts.set(e.key, (counts.get(e.key) ?? 0) + 1);
  return counts;
}

/** Records every event the SDK hands to the sink, then passes it on to `inner` unchanged. */
function tapped(inner: InjectedSinks<LifecycleSinks>, into: LifecycleEvent[]): InjectedSinks<LifecycleSinks> {
  return {
    lifecycle: {
      emit: {
        fn: (info, event: LifecycleEvent) => {
          into.push(event);
          return inner.lifecycle.emit.fn(info, event);
        },
        callDuringReplay: false,
      },
    },
  };
}
