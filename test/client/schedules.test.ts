// Scheduled runs through durable-agent/client, on the dev server with a worker whose model is the fake:
// a schedule's firing is an ordinary agentRun with the schedule's input; pause, unpause, trigger and
// delete; bad input refused before anything is created; schedules of other workflows left alone.
import { describe, expect, it } from 'vitest';
import { InvalidRunRequestError, InvalidScheduleError, ScheduleExistsError, UnknownScheduleError } from '../../src/client/errors';
import { deleteSchedule, describeSchedule, listSchedules, pauseSchedule, startSchedule, unpauseSchedule, type AgentScheduleOptions } from '../../src/client/schedules';
import { triggerSchedule } from '../../src/client/schedules-trigger';
import { updateSchedule } from '../../src/client/schedules-update';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { AgentNameKey } from '../../src/contract/search-attributes';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForApprovals, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { approveParked, firingIdPattern, removeSchedule, waitForPoller } from '../support/schedules';
import { callId, chainAgent, chainPlan, gatedStepTool, stepScript, stepTool } from '../support/step-script';

/** A loaded machine's scheduler can take longer than the default 20 s to act on a trigger. */
const slow = { waitMs: 90_000 };

const complete = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

/** Whatever `body` throws, or a failure when it throws nothing. */
async function refusal(body: () => Promise<unknown>): Promise<Error> {
  try {
    await body();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('scheduled runs (durable-agent/client)', () => {
  const bed = useAgentTestbed();

  /** Runs `body` with a worker and deletes the named schedules (and their open runs) afterwards. */
  const withSchedules = (names: string[], body: (h: RunHarness) => Promise<void>) =>
    withAgentWorker(bed.harness(), async (h) => {
      try {
        await waitForPoller(h.client, h.taskQueue);
        await body(h);
      } finally {
        for (const name of names) await removeSchedule(h.client, name);
      }
    });

  it('creates a schedule whose trigger starts an ordinary agentRun with the schedule\'s input; describe, list, pause, unpause and delete', async () => {
    const name = uniqueId('sched-life');
    const task = uniqueId('scheduled-task');
    bed.fake.script(task, [complete('scheduled work done')]);
    await withSchedules([name], async (h) => {
      const input = { agent: 'general', task, user: 'bob', approvers: ['alice'], maxIterations: 5, toolApproval: { alwaysRejected: ['shell'] } };
      const created = await startSchedule(h.client, { name, cron: '0 9 * * 1', timezone: 'europe/berlin', input, taskQueue: h.taskQueue, createdBy: 'bob' });
      expect(created).toMatchObject({ name, agent: 'general', task, cron: '0 9 * * 1', timezone: 'Europe/Berlin', overlap: 'skip', paused: false, taskQueue: h.taskQueue, agentChecked: true, input });
      expect(created.workflowIdPrefix).toBe(`schedule-${name}`);
      // Mondays at 09:00 in Berlin, whatever the offset of the day.
      expect(created.nextFirings.length).toBeGreaterThan(2);
      for (const at of created.nextFirings) {
        const berlin = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
        expect(berlin).toBe('Mon 09:00');
      }

      const listed = await waitFor(async () => (await listSchedules(h.client)).find((s) => s.name === name), `${name} in the list`);
      expect(listed).toMatchObject({ agent: 'general', task, cron: '0 9 * * 1', timezone: 'Europe/Berlin', taskQueue: h.taskQueue, paused: false });
      expect(listed.nextFirings[0]).toBe(created.nextFirings[0]);

      const triggered = await triggerSchedule(h.client, name, slow);
      expect(triggered.outcome).toBe('started');
      const workflowId = (triggered as { workflowId: string }).workflowId;
      expect(workflowId).toMatch(firingIdPattern(name));
      const run = h.client.workflow.getHandle(workflowId);
      expect(await run.result()).toMatchObject({ status: 'completed', completion: { summary: 'scheduled work done' } });
      const status = await run.query(statusQuery);
      expect(status).toMatchObject({ agent: 'general', task, user: 'bob', maxIterations: 5 });
      const described = await run.describe();
      expect(described.typedSearchAttributes.get(AgentNameKey)).toBe('general');
      expect(described.searchAttributes.TemporalScheduledById).toEqual([name]);

      const paused = await pauseSchedule(h.client, name, 'Paused for the holidays');
      expect(paused).toMatchObject({ paused: true, note: 'Paused for the holidays' });
      expect((await describeSchedule(h.client, name)).paused).toBe(true);
      expect(await unpauseSchedule(h.client, name)).toMatchObject({ paused: false, note: 'Unpaused' });
      expect(await describeSchedule(h.client, name)).toMatchObject({ firingsTaken: 1, recentFirings: [{ workflowId }], openRuns: [] });

      expect(await deleteSchedule(h.client, name)).toEqual({ openRuns: [] });
      expect(await refusal(() => describeSchedule(h.client, name))).toBeInstanceOf(UnknownScheduleError);
    });
  });

  it('refuses a bad cron, time zone, name, overlap, input or agent, and a name that exists, before anything is created', async () => {
    const name = uniqueId('sched-bad');
    const taken = uniqueId('sched-taken');
    await withSchedules([name, taken], async (h) => {
      const base: AgentScheduleOptions = { name, cron: '0 9 * * 1', input: { agent: 'general', task: 'Triage' }, taskQueue: h.taskQueue };
      const cases: [Partial<AgentScheduleOptions>, new (...args: never[]) => Error, RegExp][] = [
        [{ cron: '0 25 * * 1' }, InvalidScheduleError, /^Invalid cron "0 25 \* \* 1": field 2 \(hour\) "25": 25 is out of range: hours run 0-23\.$/],
        [{ timezone: 'Europe/Berln' }, InvalidScheduleError, /^Unknown time zone "Europe\/Berln": give an IANA name/],
        [{ name: 'no spaces allowed' }, InvalidScheduleError, /^Invalid schedule name "no spaces allowed"/],
        [{ overlap: 'sometimes' as never }, InvalidScheduleError, /^Unknown overlap policy "sometimes"/],
        [{ input: { agent: 'general', task: 'Triage', maxIterations: 0 } }, InvalidRunRequestError, /^Invalid run input:\n- maxIterations: /],
        [{ input: { agent: 'general', task: 'Triage', checkpoint: {} } }, InvalidRunRequestError, /checkpoint is internal/],
        // A worker polls the queue, so the client can know the agents it serves.
        [{ input: { agent: 'helper', task: 'Triage' } }, InvalidRunRequestError, new RegExp(`^Unknown agent "helper"\\. Agents on task queue "${h.taskQueue}": .*general`)],
      ];
      for (const [change, type, message] of cases) {
        const error = await refusal(() => startSchedule(h.client, { ...base, ...change }));
        expect(error, JSON.stringify(change)).toBeInstanceOf(type);
        expect(error.message).toMatch(message);
        expect(await refusal(() => describeSchedule(h.client, change.name ?? name))).toBeInstanceOf(UnknownScheduleError);
      }

      const first = await startSchedule(h.client, { ...base, name: taken, input: { agent: 'general', task: 'the first one' } });
      const again = await refusal(() => startSchedule(h.client, { ...base, name: taken, cron: '@daily', input: { agent: 'general', task: 'a second one' } }));
      expect(again).toBeInstanceOf(ScheduleExistsError);
      expect(again.message).toBe(`A schedule named "${taken}" exists; pick another name, or delete it first (agentctl schedule delete ${taken}).`);
      expect(await describeSchedule(h.client, taken)).toMatchObject({ cron: '0 9 * * 1', task: 'the first one', createdAt: first.createdAt });
    });
  });

  it('updates a schedule in place (cron, time zone, overlap, task), after refusing bad changes without changing anything', async () => {
    const name = uniqueId('sched-update');
    const task = uniqueId('before-update');
    const later = uniqueId('after-update');
    bed.fake.script(later, [complete('updated work done')]);
    await withSchedules([name], async (h) => {
      await startSchedule(h.client, { name, cron: '0 9 * * 1', input: { agent: 'general', task, user: 'bob', maxIterations: 5 }, taskQueue: h.taskQueue, paused: true, note: 'made paused' });
      const before = await describeSchedule(h.client, name);
      const cases: [Parameters<typeof updateSchedule>[2], new (...args: never[]) => Error, RegExp][] = [
        [{ cron: '0 25 * * 1' }, InvalidScheduleError, /^Invalid cron "0 25 \* \* 1": field 2 \(hour\)/],
        [{ cron: '@daily', timezone: 'Europe/Berln' }, InvalidScheduleError, /^Unknown time zone "Europe\/Berln"/],
        [{ overlap: 'sometimes' as never }, InvalidScheduleError, /^Unknown overlap policy "sometimes"/],
        [{ input: { maxIteration: 3 } as never }, InvalidRunRequestError, /unknown field "maxIteration"/],
        [{ input: { checkpoint: {} } }, InvalidRunRequestError, /checkpoint is internal/],
        [{ input: { agent: 'helper' } }, InvalidRunRequestError, /^Unknown agent "helper"/],
        [{ task: ' ' }, InvalidScheduleError, /task of a schedule cannot be empty/],
        [{}, InvalidScheduleError, /^Nothing to change/],
      ];
      for (const [change, type, message] of cases) {
        const error = await refusal(() => updateSchedule(h.client, name, change));
        expect(error, JSON.stringify(change)).toBeInstanceOf(type);
        expect(error.message).toMatch(message);
      }
      expect(await describeSchedule(h.client, name)).toEqual(before);
      expect(await refusal(() => updateSchedule(h.client, uniqueId('no-such-schedule'), { cron: '@daily' }))).toBeInstanceOf(UnknownScheduleError);

      const updated = await updateSchedule(h.client, name, { cron: '30 7 * * *', timezone: 'america/new_york', overlap: 'allow_all', task: later });
      expect(updated).toMatchObject({ changed: ['cron', 'timezone', 'overlap', 'input'], name, agent: 'general', task: later, cron: '30 7 * * *', timezone: 'America/New_York', overlap: 'allow_all' });
      // What it was made with stays: its pause and note, the rest of the input, when it was made.
      expect(updated).toMatchObject({ paused: true, note: 'made paused', createdAt: before.createdAt, input: { agent: 'general', task: later, user: 'bob', maxIterations: 5 } });
      // A change of the overlap alone sends the spec back as it was: the cron as written stays readable.
      expect(await updateSchedule(h.client, name, { overlap: 'allow_all' })).toMatchObject({ changed: [], cron: '30 7 * * *' });
      expect(await updateSchedule(h.client, name, { overlap: 'skip' })).toMatchObject({ changed: ['overlap'], overlap: 'skip', cron: '30 7 * * *', timezone: 'America/New_York', task: later });
      const unpaused = await unpauseSchedule(h.client, name);
      expect(unpaused.nextFirings.length).toBeGreaterThan(2);
      for (const at of unpaused.nextFirings) {
        expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at))).toBe('07:30');
      }
      const listed = await waitFor(async () => (await listSchedules(h.client)).find((s) => s.name === name), `${name} in the list`);
      expect(listed).toMatchObject({ task: later, cron: '30 7 * * *', timezone: 'America/New_York' });

      const triggered = await triggerSchedule(h.client, name, slow);
      expect(triggered.outcome).toBe('started');
      const run = h.client.workflow.getHandle((triggered as { workflowId: string }).workflowId);
      expect(await run.result()).toMatchObject({ status: 'completed', completion: { summary: 'updated work done' } });
      expect(await run.query(statusQuery)).toMatchObject({ agent: 'general', task: later, user: 'bob', maxIterations: 5 });
    });
  });

  it('with no worker polling the task queue, creates the schedule and says the agent was not checked', async () => {
    const name = uniqueId('sched-unchecked');
    await withSchedules([name], async (h) => {
      const created = await startSchedule(h.client, { name, cron: '@daily', input: { agent: 'anyone', task: 'Triage' }, taskQueue: uniqueId('no-worker-queue') });
      expect(created.agentChecked).toBe(false);
    });
  });

  it('a trigger while a run of the schedule waits for approval is skipped; overlap allow_all starts one anyway', async () => {
    const name = uniqueId('sched-trigger');
    const task = uniqueId('parks-then-completes');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'out.md', content: 'x' })), complete('written')]);
    await withSchedules([name], async (h) => {
      await startSchedule(h.client, { name, cron: '0 9 * * 1', input: { agent: 'general', task, approvers: ['alice'] }, taskQueue: h.taskQueue });
      const first = await triggerSchedule(h.client, name, slow);
      expect(first.outcome).toBe('started');
      const parked = h.client.workflow.getHandle((first as { workflowId: string }).workflowId);
      await waitForApprovals(parked);

      expect(await triggerSchedule(h.client, name, slow)).toEqual({ outcome: 'skipped', openRuns: [parked.workflowId] });
      const extra = await triggerSchedule(h.client, name, { ...slow, overlap: 'allow_all' });
      expect(extra.outcome).toBe('started');
      expect((extra as { workflowId: string }).workflowId).not.toBe(parked.workflowId);
      expect(await describeSchedule(h.client, name)).toMatchObject({ firingsTaken: 2, firingsSkipped: 1, openRuns: [parked.workflowId] });

      await approveParked(parked, 'alice');
      expect(await parked.result()).toMatchObject({ status: 'completed' });
    });
  });

  it('overlap cancel_other cancels the parked run, which records phase cancelled, then starts the new one', async () => {
    const name = uniqueId('sched-cancel-other');
    const task = uniqueId('parks-to-be-cancelled');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'out.md', content: 'x' })), complete('written')]);
    await withSchedules([name], async (h) => {
      await startSchedule(h.client, { name, cron: '0 9 * * 1', overlap: 'cancel_other', input: { agent: 'general', task }, taskQueue: h.taskQueue });
      const first = await triggerSchedule(h.client, name, slow);
      const parked = h.client.workflow.getHandle((first as { workflowId: string }).workflowId);
      await waitForApprovals(parked);
      const second = await triggerSchedule(h.client, name, slow);
      expect(second.outcome).toBe('started');
      // The scheduler asks the parked run to cancel and may start the new one before that run has closed.
      expect(await waitFor(async () => ((await parked.query(statusQuery)).phase === 'cancelled' ? 'cancelled' : undefined), 'the parked run cancelled')).toBe('cancelled');
      await waitForApprovals(h.client.workflow.getHandle((second as { workflowId: string }).workflowId));
      expect(await describeSchedule(h.client, name)).toMatchObject({ firingsTaken: 2, openRuns: [(second as { workflowId: string }).workflowId] });
    });
  });

  it('a parked run that continued as new still counts as the schedule\'s open run', async () => {
    const name = uniqueId('sched-chain');
    const task = uniqueId('chain-parks');
    bed.fake.script(task, stepScript(chainPlan({ gated: 2, last: 4, summary: 'chain done' })));
    await withAgentWorker({ ...bed.harness(), agents: [chainAgent], tools: [stepTool, gatedStepTool] }, async (h) => {
      try {
        await waitForPoller(h.client, h.taskQueue);
        await startSchedule(h.client, { name, cron: '0 9 * * 1', input: { agent: 'chain', task, historyBudget: { maxEvents: 60 } }, taskQueue: h.taskQueue });
        const first = await triggerSchedule(h.client, name, slow);
        const run = h.client.workflow.getHandle((first as { workflowId: string }).workflowId);
        await waitForApprovals(run);
        const parkedRunId = (await run.describe()).runId;
        // Ignored signals grow the parked run's history until it hands over to a new link.
        let i = 0;
        await waitFor(async () => {
          await run.signal(approvalSignal, { callId: `no-such-call-${(i += 1)}`, decision: 'approve' });
          return (await run.describe()).runId !== parkedRunId ? true : undefined;
        }, 'the parked run to continue as new', 30_000);
        await waitForApprovals(run);

        expect(await triggerSchedule(h.client, name, slow)).toEqual({ outcome: 'skipped', openRuns: [run.workflowId] });
        await run.signal(approvalSignal, { callId: callId(2), decision: 'approve', approver: 'tester' });
        expect(await run.result()).toMatchObject({ status: 'completed', completion: { summary: 'chain done' } });
        // The chain ended: the schedule's next firing starts a run again.
        expect((await triggerSchedule(h.client, name, slow)).outcome).toBe('started');
      } finally {
        await removeSchedule(h.client, name);
      }
    });
  });

  it('leaves schedules of other workflows alone, and with a task queue scope treats other queues\' schedules as unknown', async () => {
    const foreign = uniqueId('sched-foreign');
    const mine = uniqueId('sched-mine');
    await withSchedules([foreign, mine], async (h) => {
      await h.client.schedule.create({
        scheduleId: foreign,
        spec: { cronExpressions: ['0 9 * * 1'] },
        action: { type: 'startWorkflow', workflowType: 'billingReport', taskQueue: h.taskQueue, args: [] },
      });
      expect((await refusal(() => pauseSchedule(h.client, foreign))).message).toBe(`Schedule "${foreign}" starts billingReport, not agent runs; manage it with the temporal CLI.`);
      expect(await refusal(() => deleteSchedule(h.client, foreign))).toBeInstanceOf(UnknownScheduleError);
      expect((await h.client.schedule.getHandle(foreign).describe()).state.paused).toBe(false);

      await startSchedule(h.client, { name: mine, cron: '@daily', input: { agent: 'general', task: 'x' }, taskQueue: h.taskQueue });
      const scoped = { taskQueue: 'some-other-queue' };
      const missing = await refusal(() => triggerSchedule(h.client, uniqueId('nothing'), scoped));
      const elsewhere = await refusal(() => triggerSchedule(h.client, mine, scoped));
      const notAgent = await refusal(() => pauseSchedule(h.client, foreign, undefined, scoped));
      for (const error of [missing, elsewhere, notAgent]) {
        expect(error).toBeInstanceOf(UnknownScheduleError);
        expect(error.message).toMatch(/^No schedule named "[^"]+" that starts agent runs on task queue "some-other-queue"\. List them with agentctl schedule list\.$/);
      }
      await waitFor(async () => ((await listSchedules(h.client)).some((s) => s.name === mine) ? true : undefined), `${mine} in the list`);
      const all = await listSchedules(h.client);
      expect(all.map((s) => s.name)).not.toContain(foreign);
      expect((await listSchedules(h.client, scoped)).map((s) => s.name)).not.toContain(mine);
    });
  });
});

