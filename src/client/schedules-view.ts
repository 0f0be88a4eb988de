// Temporal's view of a schedule turned into what a person (agentctl, the console) or a script reads:
// plain JSON, times as ISO strings, the run input decoded, the firings by their workflow ids.
import type { ScheduleDescription, ScheduleExecutionResult, ScheduleSummary } from '@temporalio/client';
import { AgentRunInputSchema, type AgentRunInput } from '../contract/run-input';
import { AGENT_RUN_WORKFLOW_TYPE } from '../contract/agent-run-api';
import { overlapName, readScheduleMemo } from './schedules-settings';
import { cronOfSpec } from './schedules-spec';

/** One firing: the run it started, and when it was due and when it started. */
export interface ScheduleFiring {
  /** The run's workflow id: the schedule's prefix and the firing's time. */
  workflowId: string;
  /** When the firing was due (ISO). */
  scheduledAt: string;
  /** When its run started (ISO). */
  startedAt: string;
}

/** A schedule as a list shows it. Fields the schedule's memo holds are absent for schedules another tool made. */
export interface AgentScheduleSummary {
  /** The schedule's id in the namespace. */
  name: string;
  /** The agent its runs start. */
  agent?: string;
  /** The task its runs are given. */
  task?: string;
  /** The cron expression as it was given (the server keeps only its compiled calendar). */
  cron?: string;
  /** The IANA time zone the cron is read in. */
  timezone: string;
  /** Where its runs go, as recorded when it was made. */
  taskQueue?: string;
  /** Paused schedules do not fire (a trigger still starts a run). */
  paused: boolean;
  /** Why it is paused (or was unpaused), as the person or the server wrote it. */
  note?: string;
  /** The next firing times, soonest first (none while paused). */
  nextFirings: string[];
  /** The latest firings, oldest first. */
  recentFirings: ScheduleFiring[];
}

/** Everything `describe` shows: the summary, the policy, the input every firing gets and the counts. */
export interface AgentScheduleDescription extends AgentScheduleSummary {
  /** The task queue its runs start on, as the schedule's action names it. */
  taskQueue: string;
  /** `skip`, `buffer_one`, `allow_all`, `cancel_other` (or `buffer_all` / `terminate_other`, set by another tool). */
  overlap: string;
  /** The input each firing starts its run with. */
  input: AgentRunInput;
  /** The workflow id firings start from; Temporal appends each firing's time. */
  workflowIdPrefix: string;
  /** Runs of this schedule that are open now (a run parked on approval is open). */
  openRuns: string[];
  /** Firings that started a run (triggers included). */
  firingsTaken: number;
  /** Firings skipped because a run of the schedule was still open. */
  firingsSkipped: number;
  /** Firings missed while the server was unavailable for longer than the catch-up window. */
  firingsMissed: number;
  /** When the schedule was made (ISO). */
  createdAt: string;
  /** When it was last changed (paused, unpaused...), if ever (ISO). */
  updatedAt?: string;
}

const iso = (date: Date) => date.toISOString();

function firing(result: ScheduleExecutionResult): ScheduleFiring {
  return { workflowId: result.action.workflow.workflowId, scheduledAt: iso(result.scheduledAt), startedAt: iso(result.takenAt) };
}

/** True when the schedule's action starts `agentRun` (what agentctl and the console manage). */
export const startsAgentRuns = (schedule: Pick<ScheduleSummary, 'action'>) => schedule.action?.workflowType === AGENT_RUN_WORKFLOW_TYPE;

export function toScheduleSummary(summary: ScheduleSummary): AgentScheduleSummary {
  const memo = readScheduleMemo(summary.memo);
  return {
    name: summary.scheduleId,
    agent: memo?.agent,
    task: memo?.task,
    cron: cronOfSpec(summary.spec) ?? memo?.cron,
    timezone: summary.spec?.timezone || memo?.timezone || 'UTC',
    taskQueue: memo?.taskQueue,
    paused: summary.state.paused,
    note: summary.state.note || undefined,
    nextFirings: summary.info.nextActionTimes.map(iso),
    recentFirings: summary.info.recentActions.map(firing),
  };
}

export function toScheduleDescription(description: ScheduleDescription): AgentScheduleDescription {
  const memo = readScheduleMemo(description.memo);
  const { action, info } = description;
  const parsed = AgentRunInputSchema.safeParse(action.args?.[0]);
  // The input as the action holds it; a schedule made by another tool may hold something else.
  const input = (action.args?.[0] ?? {}) as AgentRunInput;
  return {
    name: description.scheduleId,
    agent: parsed.success ? parsed.data.agent : memo?.agent,
    task: parsed.success ? parsed.data.task : memo?.task,
    cron: cronOfSpec(description.spec) ?? memo?.cron,
    timezone: description.spec.timezone || memo?.timezone || 'UTC',
    taskQueue: action.taskQueue,
    paused: description.state.paused,
    note: description.state.note || undefined,
    nextFirings: info.nextActionTimes.map(iso),
    recentFirings: info.recentActions.map(firing),
    overlap: overlapName(description.policies.overlap),
    input,
    workflowIdPrefix: action.workflowId,
    openRuns: info.runningActions.map((a) => a.workflow.workflowId),
    firingsTaken: info.numActionsTaken,
    firingsSkipped: info.numActionsSkippedOverlap,
    firingsMissed: info.numActionsMissedCatchupWindow,
    createdAt: iso(info.createdAt),
    updatedAt: info.lastUpdatedAt ? iso(info.lastUpdatedAt) : undefined,
  };
}
