// Changing an agent schedule in place: its cron, time zone, overlap policy, or the run input its
// firings start with. Everything given is checked as `startSchedule` checks it, before the schedule
// is read, and the merged input again before anything is written, so bad input changes nothing.
import type { Client, ScheduleDescription, ScheduleUpdateOptions } from '@temporalio/client';
import type { AgentRunInput } from '../contract/run-input';
import { InvalidScheduleError } from './errors';
import { checkAgent } from './schedules-agent-check';
import { checkCron } from './schedules-cron';
import { describeAgentSchedule, type ScheduleScope } from './schedules-lookup';
import { canonicalTimezone, checkOverlap, checkScheduledInput, OVERLAP_POLICY, type ScheduleOverlap } from './schedules-settings';
import { cronSpec } from './schedules-spec';
import { toScheduleDescription, type AgentScheduleDescription } from './schedules-view';
import { runStartOptions } from './start-run';

/** What `updateSchedule` changes; whatever is left out keeps its value. */
export interface AgentScheduleChanges {
  /** Five cron fields or a shorthand, as for `startSchedule`. */
  cron?: string;
  /** An IANA time zone the cron is read in. */
  timezone?: string;
  /** What a firing does while the previous run is still open. */
  overlap?: ScheduleOverlap;
  /**
   * The run input every firing starts with, replacing the schedule's; an `agent`, `task` or `user`
   * it leaves out is kept from the schedule's input.
   */
  input?: Partial<AgentRunInput>;
  /** The task every firing's run is given (over `input.task`); the rest of the input stays. */
  task?: string;
  /** Ask a worker whether it serves a changed agent, as `startSchedule` does (default true). */
  checkAgent?: boolean;
}

/** The schedule as changed, read back from the server. */
export interface UpdatedSchedule extends AgentScheduleDescription {
  /** What changed: the names of the changed settings (`cron`, `timezone`, `overlap`, `input`). */
  changed: string[];
  /** Whether a worker confirmed that it serves the agent (false: the agent did not change, or no worker polled the queue). */
  agentChecked: boolean;
}

/** The changes, checked: every setting given is valid, and there is at least one. */
function checkChanges(changes: AgentScheduleChanges) {
  const checked = {
    cron: changes.cron === undefined ? undefined : checkCron(changes.cron),
    timezone: changes.timezone === undefined ? undefined : canonicalTimezone(changes.timezone),
    overlap: changes.overlap === undefined ? undefined : checkOverlap(changes.overlap),
  };
  if (changes.task !== undefined && changes.task.trim() === '') throw new InvalidScheduleError('The task of a schedule cannot be empty.');
  if (Object.values(checked).every((v) => v === undefined) && changes.input === undefined && changes.task === undefined) {
    throw new InvalidScheduleError('Nothing to change: give a cron, a time zone, an overlap policy, a task or a run input.');
  }
  return checked;
}

/** The input the firings start with after the change: the schedule's own agent, task and user unless the change names them. */
function mergedInput(current: AgentRunInput, changes: AgentScheduleChanges): AgentRunInput {
  if (changes.input === undefined && changes.task === undefined) return current;
  const base = changes.input ?? current;
  const input: Record<string, unknown> = { ...base, agent: base.agent ?? current.agent, task: changes.task ?? base.task ?? current.task };
  if (input.user === undefined && current.user !== undefined) input.user = current.user;
  return input as AgentRunInput;
}

/** The update Temporal is sent: the schedule as it was, with the changed parts replaced. */
function updated(previous: ScheduleDescription, input: AgentRunInput, inputChanged: boolean, checked: ReturnType<typeof checkChanges>, cron: string): ScheduleUpdateOptions {
  const timezone = checked.timezone ?? (previous.spec.timezone || 'UTC');
  const specChanged = checked.cron !== undefined || checked.timezone !== undefined;
  const spec = specChanged ? cronSpec(cron, timezone) : previous.spec;
  const start = runStartOptions(input);
  // The runs' details name the schedule's cron and zone, so they follow a change of either too.
  const action = inputChanged || specChanged
    ? { ...previous.action, args: [input], ...start, staticDetails: `${start.staticDetails}\n\n**Schedule:** ${previous.scheduleId} (\`${cron}\`, ${timezone})` }
    : previous.action;
  const policies = checked.overlap === undefined ? previous.policies : { ...previous.policies, overlap: OVERLAP_POLICY[checked.overlap] };
  return { ...previous, spec, action, policies } as ScheduleUpdateOptions;
}

/**
 * Changes an agent schedule in place (its firings so far, its pause state and its counts stay).
 * Throws InvalidScheduleError or InvalidRunRequestError, having changed nothing, for a bad cron, time
 * zone, overlap or input, or an agent a worker says it does not serve; UnknownScheduleError when there
 * is no such agent schedule.
 */
export async function updateSchedule(client: Client, name: string, changes: AgentScheduleChanges, scope?: ScheduleScope): Promise<UpdatedSchedule> {
  const checked = checkChanges(changes);
  const { handle, description } = await describeAgentSchedule(client, name, scope);
  const before = toScheduleDescription(description);
  const input = mergedInput(before.input, changes);
  const inputChanged = input !== before.input;
  if (inputChanged) checkScheduledInput(input);
  const agentChanged = inputChanged && input.agent !== before.input.agent;
  const agentChecked = agentChanged && changes.checkAgent !== false ? await checkAgent(client, description.action.taskQueue, input.agent) : false;
  const cron = checked.cron ?? before.cron;
  if (cron === undefined && checked.timezone !== undefined) {
    throw new InvalidScheduleError(`Schedule "${name}" records no cron (made by another tool?), so its time zone cannot be changed alone: give --cron too.`);
  }
  await handle.update((previous) => updated(previous, input, inputChanged, checked, cron ?? ''));
  const after = toScheduleDescription((await describeAgentSchedule(client, name, scope)).description);
  const changed = [
    ...(checked.cron !== undefined && checked.cron !== before.cron ? ['cron'] : []),
    ...(checked.timezone !== undefined && checked.timezone !== before.timezone ? ['timezone'] : []),
    ...(checked.overlap !== undefined && checked.overlap !== before.overlap ? ['overlap'] : []),
    ...(inputChanged && JSON.stringify(input) !== JSON.stringify(before.input) ? ['input'] : []),
  ];
  return { ...after, changed, agentChecked };
}
