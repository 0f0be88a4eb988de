// The `watchStatus` query (contract/live-status.ts) as an insider with a plain Temporal client could use
// it: hammered on a run from start to end, parked on an approval included, on a worker whose relay is
// off (nobody takes the pushes). A query writes nothing, and the pushes it arms go through a sink, so the
// run must make exactly the events an unwatched run makes, answer as `status` does, and its history must
// replay on a worker that was never asked.
import type { WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { watchStatusQuery } from '../../src/contract/live-status';
import { lifecycleSinks } from '../../src/runtime/lifecycle/lifecycle-sink';
import { waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const bed = useAgentTestbed();

/** Looks around, writes a file (parks for a person), looks again, completes. */
function scriptedTask(prefix: string): string {
  const task = uniqueId(prefix);
  bed.fake.script(task, [
    reply(text('Looking first.'), toolCall('list_files', {})),
    reply(toolCall('write_file', { path: 'note.txt', content: 'watched or not' })),
    reply(toolCall('list_files', {})),
    reply(toolCall('complete_task', { summary: 'written', status: 'success' })),
  ]);
  return task;
}

/** The history's event types without the workflow tasks (how the server groups work into tasks varies with timing). */
async function eventsOf(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).map((e) => String(e.eventType)).filter((type) => !['5', '6', '7', '8'].includes(type));
}

describe('watchStatus', () => {
  it('changes nothing a run writes: hammered from start to end, the run makes the events an unwatched one makes, answers as status does, and replays', async () => {
    const runs: Record<'watched' | 'plain', { events: string[]; queries: number }> = {} as never;
    let watchedHistory: Awaited<ReturnType<WorkflowHandle['fetchHistory']>> | undefined;
    for (const mode of ['watched', 'plain'] as const) {
      await withAgentWorker({ ...bed.harness(), env: { AGENT_LIVE_RELAY: 'off' } }, async ({ start }) => {
        const handle = await start({ agent: 'general', task: scriptedTask(`watch-status-${mode}`) });
        let queries = 0;
        let hammering = mode === 'watched';
        const hammer = (async () => {
          while (hammering) {
            await handle.query(watchStatusQuery).then(() => (queries += 1), () => undefined);
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        })();
        try {
          const parked = await waitForApprovals(handle);
          if (mode === 'watched') {
            // The same answer as `status`, while parked (nothing moves between the two reads).
            expect(await handle.query(watchStatusQuery)).toEqual(await handle.query(statusQuery));
            // Hammered for a while before it moves on, however slow a loaded machine makes each query
            // (a run that finished within a handful of queries once failed the count below).
            await waitFor(async () => (queries > 20 ? true : undefined), 'twenty watchStatus queries while the run waits', 60_000);
          }
          await handle.signal(approvalSignal, { callId: parked.pendingApprovals[0]!.callId, decision: 'approve', approver: 'test' });
          const result = await handle.result();
          expect(result.status).toBe('completed');
        } finally {
          hammering = false;
          await hammer;
        }
        runs[mode] = { events: await eventsOf(handle), queries };
        if (mode === 'watched') watchedHistory = await handle.fetchHistory();
      });
    }
    expect(runs.watched.events).toEqual(runs.plain.events);
    expect(runs.watched.queries).toBeGreaterThan(20);
    await Worker.runReplayHistory({ workflowBundle: bed.harness().workflowBundle, sinks: lifecycleSinks([]) }, watchedHistory!, 'watched');
  });
});
