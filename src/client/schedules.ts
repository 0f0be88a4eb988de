// Scheduled runs: Temporal schedules whose action starts an ordinary `agentRun`. Temporal keeps the
// schedule, fires it, applies the overlap policy and shows it on the Web UI's Schedules page; this
// module checks what a person gives before anything is created, and reads schedules back in our terms.
import { ScheduleAlreadyRunning, ServiceError, type Client } from '@temporalio/client';
import { AGENT_RUN_WORKFLOW_TYPE } from '../contract/agent-run-api';
import type { AgentRunInput } from '../contract/run-input';
import { InvalidScheduleError, ScheduleExistsError, UnknownScheduleError } from './errors';
import { checkAgent } from './schedules-agent-check';
import { cronSpec } from './schedules-spec';
import { describeAgentSchedule, type ScheduleScope } from './schedules-lookup';
import { runStartOptions } from './start-run';
import { checkCron } from './schedules-cron';
import {
  canonicalTimezone,
  checkOverlap,
  checkScheduledInput,
  checkScheduleName,
  OVERLAP_POLICY,
  SCHEDULE_MEMO_KEY,
  scheduleWorkflowIdPrefix,
  type ScheduleMemo,
  type ScheduleOverlap,
} from './schedules-settings';
import { startsAgentRuns, toScheduleDescription, toScheduleSummary, type AgentScheduleDescription, type AgentScheduleSummary } from './schedules-view';

/** What `startSchedule` makes: a name, when it fires, and the run each firing starts. */
export interface AgentScheduleOptions {
  /** The schedule's id in the namespace: letters, digits, ".", "_" and "-". */
  name: string;
  /** Five cron fields (minute hour day-of-month month day-of-week) or a shorthand such as @daily. */
  cron: string;
  /** An IANA time zone the cron is read in (default UTC). */
  timezone?: string;
  /** What a firing does while the previous run is still open, parked runs included (default `skip`). */
  overlap?: ScheduleOverlap;
  /** The input every firing starts its run with: agent, task, and any other run-input field (rules, approvers, budget...). */
  input: AgentRunInput;
  /** The task queue the agent workers poll. */
  taskQueue: string;
  /** Create it paused (it fires only once unpaused). */
  paused?: boolean;
  /** A note shown with the schedule's state (e.g. why it was made paused). */
  note?: string;
  /** Recorded in the memo as who made it. */
  createdBy?: string;
  /**
   * Ask a worker of the task queue which agents it serves and refuse an unknown agent (default true).
   * When no worker polls the queue the check cannot be made; the result then says `agentChecked: false`.
   */
  checkAgent?: boolean;
}

/** The schedule as made, read back from the server (its next firings included). */
export interface CreatedSchedule extends AgentScheduleDescription {
  /** Whether a worker confirmed that it serves the agent (false: no worker polled the task queue). */
  agentChecked: boolean;
}

/**
 * Creates a schedule whose every firing starts an `agentRun` with `options.input`. Everything is checked
 * first (name, cron, time zone, overlap, the run input, the agent when a worker can say), so bad input
 * creates nothing; a name already taken gives ScheduleExistsError.
 */
export async function startSchedule(client: Client, options: AgentScheduleOptions): Promise<CreatedSchedule> {
  const name = checkScheduleName(options.name);
  const cron = checkCron(options.cron);
  const timezone = canonicalTimezone(options.timezone ?? 'UTC');
  const overlap = checkOverlap(options.overlap ?? 'skip');
  const input = checkScheduledInput(options.input);
  const agentChecked = options.checkAgent === false ? false : await checkAgent(client, options.taskQueue, input.agent);
  const memo: ScheduleMemo = { version: 1, agent: input.agent, task: input.task, cron, timezone, taskQueue: options.taskQueue, createdBy: options.createdBy };
  const start = runStartOptions(options.input);
  try {
    await client.schedule.create({
      scheduleId: name,
      spec: cronSpec(cron, timezone),
      action: {
        type: 'startWorkflow',
        workflowType: AGENT_RUN_WORKFLOW_TYPE,
        taskQueue: options.taskQueue,
        workflowId: scheduleWorkflowIdPrefix(name),
        args: [options.input],
        ...start,
        staticDetails: `${start.staticDetails}\n\n**Schedule:** ${name} (\`${cron}\`, ${timezone})`,
      },
      policies: { overlap: OVERLAP_POLICY[overlap] },
      memo: { [SCHEDULE_MEMO_KEY]: memo },
      state: { paused: options.paused === true, note: options.note },
    });
  } catch (error) {
    if (error instanceof ScheduleAlreadyRunning) {
      throw new ScheduleExistsError(`A schedule named "${name}" exists; pick another name, or delete it first (agentctl schedule delete ${name}).`);
    }
    // Whatever the checks above let through and the server still refuses: the SDK turns a refused spec
    // into a TypeError with the server's words, any other INVALID_ARGUMENT (code 3) into a ServiceError.
    const cause = error instanceof ServiceError ? (error.cause as { code?: number; details?: string } | undefined) : undefined;
    if (error instanceof TypeError || cause?.code === 3) {
      throw new InvalidScheduleError(`The server refused schedule "${name}": ${cause?.details ?? (error as Error).message}`);
    }
    throw error;
  }
  return { ...(await describeSchedule(client, name)), agentChecked };
}

/** One agent schedule as it is now: policy, input, next and recent firings, open runs, counts. */
export async function describeSchedule(client: Client, name: string, scope?: ScheduleScope): Promise<AgentScheduleDescription> {
  return toScheduleDescription((await describeAgentSchedule(client, name, scope)).description);
}

/**
 * The agent schedules of the namespace (of one task queue, with `scope`), by name. Found in Temporal's
 * visibility store, which lags a change by a moment, then each read as it is now: its agent and task
 * from its action (an update may have changed them since the memo was written), and one deleted
 * meanwhile left out.
 */
export async function listSchedules(client: Client, scope: ScheduleScope = {}): Promise<AgentScheduleSummary[]> {
  const found: AgentScheduleSummary[] = [];
  for await (const summary of client.schedule.list()) {
    if (!startsAgentRuns(summary)) continue;
    const view = toScheduleSummary(summary);
    if (scope.taskQueue === undefined || view.taskQueue === scope.taskQueue) found.push(view);
  }
  const current = await Promise.all(
    found.map((view) =>
      describeSchedule(client, view.name, scope).then(
        (now) => ({ ...view, agent: now.agent, task: now.task, cron: now.cron, timezone: now.timezone, paused: now.paused, note: now.note, nextFirings: now.nextFirings, recentFirings: now.recentFirings }),
        (error: unknown) => {
          if (error instanceof UnknownScheduleError) return undefined;
          throw error;
        },
      ),
    ),
  );
  return current.filter((view) => view !== undefined).sort((a, b) => a.name.localeCompare(b.name));
}

/** Pauses a schedule: no firing until it is unpaused (a trigger still starts a run). */
export async function pauseSchedule(client: Client, name: string, note?: string, scope?: ScheduleScope): Promise<AgentScheduleDescription> {
  const { handle } = await describeAgentSchedule(client, name, scope);
  await handle.pause(note ?? 'Paused');
  return describeSchedule(client, name, scope);
}

/** Unpauses a schedule: it fires again from its next due time (times missed while paused are not caught up). */
export async function unpauseSchedule(client: Client, name: string, note?: string, scope?: ScheduleScope): Promise<AgentScheduleDescription> {
  const { handle } = await describeAgentSchedule(client, name, scope);
  await handle.unpause(note ?? 'Unpaused');
  return describeSchedule(client, name, scope);
}

/** Deletes a schedule. Its runs that are open go on (a parked one still waits for its decision). */
export async function deleteSchedule(client: Client, name: string, scope?: ScheduleScope): Promise<{ openRuns: string[] }> {
  const { handle, description } = await describeAgentSchedule(client, name, scope);
  await handle.delete();
  return { openRuns: description.info.runningActions.map((a) => a.workflow.workflowId) };
}
