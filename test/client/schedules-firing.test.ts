// Firings by the clock, not by trigger: three schedules that fire every minute, on the dev server's
// own scheduler. While a run of each waits for approval, the next firing is skipped (overlap skip,
// the default), buffered until the run ends (buffer_one), or starts a second run (allow_all). One
// minute boundary serves all three, so the test waits for at most one.
import { describe, expect, it } from 'vitest';
import { describeSchedule, startSchedule } from '../../src/client/schedules';
import { triggerSchedule } from '../../src/client/schedules-trigger';
import { statusQuery } from '../../src/contract/agent-run-api';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { approveParked, firingIdPattern, removeSchedule, waitForPoller } from '../support/schedules';

/** A firing comes at the next minute boundary, plus the scheduler's own latency. */
const MINUTE_AND_MARGIN_MS = 75_000;

describe('scheduled firings', () => {
  const bed = useAgentTestbed();

  it(
    'a firing while the previous run waits for approval is skipped with overlap skip, waits with buffer_one, and starts a run with allow_all',
    async () => {
      const names = { skip: uniqueId('every-minute-skip'), buffer: uniqueId('every-minute-buffer'), all: uniqueId('every-minute-all') };
      const tasks = { skip: uniqueId('skip-task'), buffer: uniqueId('buffer-task'), all: uniqueId('all-task') };
      for (const task of Object.values(tasks)) {
        bed.fake.script(task, [reply(toolCall('write_file', { path: `${task}.md`, content: 'x' })), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
      }
      await withAgentWorker(bed.harness(), async (h) => {
        try {
          await waitForPoller(h.client, h.taskQueue);
          const make = (name: string, task: string, overlap?: 'buffer_one' | 'allow_all') =>
            // Made paused, so no firing can come before the first run is parked; a trigger works on a paused schedule.
            startSchedule(h.client, { name, cron: '* * * * *', overlap, input: { agent: 'general', task, approvers: ['alice'] }, taskQueue: h.taskQueue, paused: true });
          expect((await make(names.skip, tasks.skip)).overlap).toBe('skip');
          await make(names.buffer, tasks.buffer, 'buffer_one');
          await make(names.all, tasks.all, 'allow_all');

          // The first run of `skip` and of `buffer` parks on its write_file; `all` gets no run before its firing.
          const first = async (name: string) => {
            const outcome = await triggerSchedule(h.client, name);
            expect(outcome.outcome).toBe('started');
            const run = h.client.workflow.getHandle((outcome as { workflowId: string }).workflowId);
            await waitForApprovals(run);
            return run;
          };
          const skipRun = await first(names.skip);
          const bufferRun = await first(names.buffer);
          for (const name of Object.values(names)) await h.client.schedule.getHandle(name).unpause();

          // One minute boundary: `skip` skips, `all` starts its first run by the clock.
          const skipped = await waitFor(
            async () => {
              const d = await describeSchedule(h.client, names.skip);
              return d.firingsSkipped >= 1 ? d : undefined;
            },
            'the every-minute firing of the skip schedule',
            MINUTE_AND_MARGIN_MS,
          );
          expect(skipped).toMatchObject({ firingsTaken: 1, openRuns: [skipRun.workflowId] });
          expect((await skipRun.query(statusQuery)).phase).toBe('waiting_approval');

          const fired = await waitFor(async () => (await describeSchedule(h.client, names.all)).recentFirings[0], 'the allow_all firing', 15_000);
          expect(fired.workflowId).toMatch(firingIdPattern(names.all));
          // By the clock: due on a whole minute, not at a trigger's moment.
          expect(fired.scheduledAt).toMatch(/:00\.000Z$/);
          await waitForApprovals(h.client.workflow.getHandle(fired.workflowId));

          // `buffer` held its firing back; it starts once the parked run is approved and ends.
          expect(await describeSchedule(h.client, names.buffer)).toMatchObject({ firingsTaken: 1, firingsSkipped: 0, openRuns: [bufferRun.workflowId] });
          await approveParked(bufferRun, 'alice');
          await bufferRun.result();
          const closedAt = (await bufferRun.describe()).closeTime!;
          const second = await waitFor(
            async () => (await describeSchedule(h.client, names.buffer)).recentFirings.find((f) => f.workflowId !== bufferRun.workflowId),
            'the buffered firing to start',
            15_000,
          );
          expect(Date.parse(second.startedAt)).toBeGreaterThanOrEqual(closedAt.getTime());
          await waitForApprovals(h.client.workflow.getHandle(second.workflowId));

          // The skipped firing never started a run: approving the parked one ends the schedule's only run.
          await approveParked(skipRun, 'alice');
          expect(await skipRun.result()).toMatchObject({ status: 'completed' });
        } finally {
          for (const name of Object.values(names)) await removeSchedule(h.client, name);
        }
      });
    },
    180_000,
  );
});
