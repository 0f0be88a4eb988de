// The console's schedule routes against the dev server: the list of the console's task queue with
// each schedule's next firing, pause, unpause and "run now" for a logged-in person; and the boundary:
// no change without the session key or from another origin, and no reach into schedules the console
// does not manage (another task queue's, another workflow's), which read as unknown.
import { describe, expect, it } from 'vitest';
import { startSchedule } from '../../src/client/schedules';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForApprovals, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { firingIdPattern, removeSchedule, waitForPoller } from '../support/schedules';
import { consoleFor } from './console-for';
import { HttpSession } from './http-session';

interface ScheduleRow {
  name: string;
  agent: string;
  cron: string;
  timezone: string;
  paused: boolean;
  note?: string;
  nextFiring?: string;
  openRuns: string[];
  lastRun?: string;
}

describe('console schedules', () => {
  const bed = useAgentTestbed();

  const withConsoleSchedules = (names: string[], body: (h: RunHarness, as: (name: string) => ReturnType<Awaited<ReturnType<typeof consoleFor>>['as']>) => Promise<void>) =>
    withAgentWorker(bed.harness(), async (h) => {
      const { built, as } = await consoleFor(h);
      try {
        await waitForPoller(h.client, h.taskQueue);
        await body(h, as);
      } finally {
        await built.stop();
        for (const name of names) await removeSchedule(h.client, name);
      }
    });

  it('lists the schedules of its task queue with the next firing, and pauses, unpauses and triggers them for a logged-in person', async () => {
    const name = uniqueId('console-sched');
    const elsewhere = uniqueId('console-elsewhere');
    const task = uniqueId('console-scheduled');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'a.md', content: 'a' })), reply(toolCall('complete_task', { summary: 'ok', status: 'success' }))]);
    await withConsoleSchedules([name, elsewhere], async (h, as) => {
      await startSchedule(h.client, { name, cron: '30 7 * * 1-5', timezone: 'America/New_York', input: { agent: 'general', task }, taskQueue: h.taskQueue });
      await startSchedule(h.client, { name: elsewhere, cron: '@daily', input: { agent: 'general', task }, taskQueue: uniqueId('other-queue'), checkAgent: false });
      const alice = await as('alice');

      // The list starts from Temporal's visibility store, which shows a new schedule after a moment.
      const schedules = await waitFor(async () => {
        const listed = await alice.request('/api/schedules');
        expect(listed.status).toBe(200);
        const rows = ((await listed.json()) as { schedules: ScheduleRow[] }).schedules;
        return rows.some((s) => s.name === name) ? rows : undefined;
      }, `${name} in the console's list`);
      const row = schedules.find((s) => s.name === name);
      expect(row).toMatchObject({ agent: 'general', cron: '30 7 * * 1-5', timezone: 'America/New_York', paused: false, openRuns: [] });
      expect(schedules.map((s) => s.name)).not.toContain(elsewhere);
      const next = new Date(row!.nextFiring!);
      expect(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(next)).toBe('07:30');

      const paused = await alice.postJson(`/api/schedules/${name}/pause`, {});
      expect(paused.status).toBe(200);
      expect(await paused.json()).toEqual({ message: `Paused ${name}: no firing until it is unpaused.` });
      expect((await h.client.schedule.getHandle(name).describe()).state).toMatchObject({ paused: true, note: 'Paused by alice from the console' });
      const pausedRow = ((await (await alice.request('/api/schedules')).json()) as { schedules: ScheduleRow[] }).schedules.find((s) => s.name === name);
      expect(pausedRow).toMatchObject({ paused: true, note: 'Paused by alice from the console' });
      expect(pausedRow!.nextFiring).toBeUndefined();

      const unpaused = await (await as('bo')).postJson(`/api/schedules/${name}/unpause`, {});
      expect(await unpaused.json()).toEqual({ message: `Unpaused ${name}.` });
      expect((await h.client.schedule.getHandle(name).describe()).state).toMatchObject({ paused: false, note: 'Unpaused by bo from the console' });

      const triggered = await alice.postJson(`/api/schedules/${name}/trigger`, {});
      expect(triggered.status).toBe(201);
      const started = (await triggered.json()) as { workflowId: string; message: string };
      expect(started.workflowId).toMatch(firingIdPattern(name));
      expect(started.message).toBe(`Started ${started.workflowId}.`);
      await waitForApprovals(h.client.workflow.getHandle(started.workflowId));

      // While that run waits for approval, "run now" follows the schedule's overlap policy (skip).
      const again = await alice.postJson(`/api/schedules/${name}/trigger`, {});
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({ message: `Skipped: ${started.workflowId} is still open and the schedule's overlap policy is skip.` });
      const withRun = ((await (await alice.request('/api/schedules')).json()) as { schedules: ScheduleRow[] }).schedules.find((s) => s.name === name);
      expect(withRun).toMatchObject({ openRuns: [started.workflowId], lastRun: started.workflowId });
    });
  });

  it('refuses a schedule change without the session key, from another origin, or without a session, and changes nothing', async () => {
    const name = uniqueId('console-csrf');
    await withConsoleSchedules([name], async (h, as) => {
      await startSchedule(h.client, { name, cron: '@daily', input: { agent: 'general', task: 'x' }, taskQueue: h.taskQueue });
      const alice = await as('alice');
      for (const action of ['pause', 'trigger']) {
        for (const options of [{ csrf: null }, { csrf: 'not-the-key' }, { origin: 'http://evil.example' }]) {
          const response = await alice.postJson(`/api/schedules/${name}/${action}`, {}, options);
          expect(response.status, `${action} ${JSON.stringify(options)}`).toBe(403);
        }
      }
      const { built } = await consoleFor(h);
      try {
        const stranger = new HttpSession(built.app);
        expect((await stranger.postJson(`/api/schedules/${name}/pause`, {}, { csrf: 'anything' })).status).toBe(401);
        expect((await stranger.request('/api/schedules')).status).toBe(401);
      } finally {
        await built.stop();
      }
      const description = await h.client.schedule.getHandle(name).describe();
      expect(description.state.paused).toBe(false);
      expect(description.info.numActionsTaken).toBe(0);
    });
  });

  it('treats a schedule of another task queue or of another workflow as unknown, and refuses a malformed name', async () => {
    const otherQueue = uniqueId('console-other-queue');
    const otherWorkflow = uniqueId('console-other-workflow');
    await withConsoleSchedules([otherQueue, otherWorkflow], async (h, as) => {
      await startSchedule(h.client, { name: otherQueue, cron: '@daily', input: { agent: 'general', task: 'x' }, taskQueue: uniqueId('elsewhere'), checkAgent: false });
      await h.client.schedule.create({
        scheduleId: otherWorkflow,
        spec: { cronExpressions: ['@daily'] },
        action: { type: 'startWorkflow', workflowType: 'payroll', taskQueue: h.taskQueue, args: [] },
      });
      const alice = await as('alice');
      for (const name of [otherQueue, otherWorkflow, uniqueId('no-such-schedule')]) {
        for (const action of ['pause', 'unpause', 'trigger']) {
          const response = await alice.postJson(`/api/schedules/${name}/${action}`, {});
          expect(response.status, `${action} ${name}`).toBe(404);
          expect(await response.json()).toEqual({ error: `No schedule named "${name}" that starts agent runs on task queue "${h.taskQueue}". List them with agentctl schedule list.` });
        }
      }
      for (const name of [otherQueue, otherWorkflow]) {
        const description = await h.client.schedule.getHandle(name).describe();
        expect(description.state.paused).toBe(false);
        expect(description.info.numActionsTaken).toBe(0);
      }
      const malformed = await alice.postJson(`/api/schedules/${encodeURIComponent('..%2f x')}/pause`, {});
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { error: string }).error).toMatch(/^Invalid schedule name/);
    });
  });
});
