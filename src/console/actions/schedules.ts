// The console's schedules: those that start agent runs on the console's task queue (the runs its page
// starts go there too), with pause, unpause and "run now". Each is read with `describe`, not from the
// visibility list alone, so a pause shows at once; every change is scoped to that task queue.
import type { Client } from '@temporalio/client';
import { describeSchedule, listSchedules, pauseSchedule, unpauseSchedule } from '../../client/schedules';
import { triggerSchedule } from '../../client/schedules-trigger';
import { checkScheduleName } from '../../client/schedules-settings';
import { InvalidScheduleError, UnknownScheduleError } from '../../client/errors';
import type { AgentScheduleDescription } from '../../client/schedules-view';
import { localTime } from '../../client/schedules-render';
import { ConsoleRequestError } from '../errors';

/** One row of the page's schedule list. */
export interface ScheduleRow {
  name: string;
  agent?: string;
  task?: string;
  cron?: string;
  timezone: string;
  overlap: string;
  paused: boolean;
  note?: string;
  /** The next firing (ISO), absent while paused. */
  nextFiring?: string;
  /** The same as the schedule's clock shows it, e.g. `2026-12-07 09:00 Europe/Berlin`. */
  nextFiringLocal?: string;
  openRuns: string[];
  /** The run of the latest firing. */
  lastRun?: string;
}

const toRow = (s: AgentScheduleDescription): ScheduleRow => ({
  name: s.name,
  agent: s.agent,
  task: s.task,
  cron: s.cron,
  timezone: s.timezone,
  overlap: s.overlap,
  paused: s.paused,
  note: s.note,
  nextFiring: s.paused ? undefined : s.nextFirings[0],
  nextFiringLocal: s.paused || !s.nextFirings[0] ? undefined : localTime(s.nextFirings[0], s.timezone),
  openRuns: s.openRuns,
  lastRun: s.recentFirings.at(-1)?.workflowId,
});

/** At most this many schedules are described per request (each is one call to the server). */
const MAX_SCHEDULES = 50;

export async function scheduleRows(client: Client, taskQueue: string): Promise<ScheduleRow[]> {
  const listed = (await listSchedules(client, { taskQueue })).slice(0, MAX_SCHEDULES);
  const described = await Promise.all(
    listed.map((s) =>
      describeSchedule(client, s.name, { taskQueue }).catch((error: unknown) => {
        // Deleted (or changed) since the list was read: leave it out.
        if (error instanceof UnknownScheduleError) return undefined;
        throw error;
      }),
    ),
  );
  return described.filter((s): s is AgentScheduleDescription => s !== undefined).map(toRow);
}

/** A name from the URL, checked before it reaches the server. */
export function scheduleNameParam(name: string): string {
  try {
    return checkScheduleName(name);
  } catch (error) {
    if (error instanceof InvalidScheduleError) throw new ConsoleRequestError(error.message);
    throw error;
  }
}

export async function pauseAs(client: Client, user: string, name: string, taskQueue: string): Promise<{ message: string }> {
  await pauseSchedule(client, name, `Paused by ${user} from the console`, { taskQueue });
  return { message: `Paused ${name}: no firing until it is unpaused.` };
}

export async function unpauseAs(client: Client, user: string, name: string, taskQueue: string): Promise<{ message: string }> {
  await unpauseSchedule(client, name, `Unpaused by ${user} from the console`, { taskQueue });
  return { message: `Unpaused ${name}.` };
}

/**
 * "Run now", under the schedule's own overlap policy: a person pressing the button while a run of
 * the schedule waits for approval gets the policy's answer, not a second run behind its back.
 */
export async function triggerAs(client: Client, name: string, taskQueue: string): Promise<{ status: 201 | 202 | 409; body: { message: string; workflowId?: string } }> {
  const outcome = await triggerSchedule(client, name, { taskQueue });
  if (outcome.outcome === 'started') return { status: 201, body: { workflowId: outcome.workflowId, message: `Started ${outcome.workflowId}.` } };
  const open = outcome.openRuns.join(', ') || 'a run of it';
  if (outcome.outcome === 'skipped') return { status: 409, body: { message: `Skipped: ${open} is still open and the schedule's overlap policy is skip.` } };
  return { status: 202, body: { message: `Requested; it starts once ${open} has ended.` } };
}
