// Finding one agent schedule by name, for every operation on it: a schedule that does not exist, that
// starts something other than agent runs, or (for the console) that serves another task queue is
// "unknown", so no caller acts on a schedule it does not manage.
import { ScheduleNotFoundError, type Client, type ScheduleDescription, type ScheduleHandle } from '@temporalio/client';
import { AGENT_RUN_WORKFLOW_TYPE } from '../contract/agent-run-api';
import { UnknownScheduleError } from './errors';

/** Restricts an operation to the schedules of one task queue (the console's); others are "unknown". */
export interface ScheduleScope {
  /** Only schedules whose runs start on this task queue. */
  taskQueue?: string;
}

/**
 * The description of an agent schedule, or UnknownScheduleError: none of that name, or it starts
 * something else. With a scope, every miss reads the same, so the console tells nothing about
 * schedules outside its task queue.
 */
export async function describeAgentSchedule(client: Client, name: string, scope: ScheduleScope = {}): Promise<{ handle: ScheduleHandle; description: ScheduleDescription }> {
  const handle = client.schedule.getHandle(name);
  const where = scope.taskQueue === undefined ? '' : ` that starts agent runs on task queue "${scope.taskQueue}"`;
  const unknown = () => new UnknownScheduleError(`No schedule named "${name}"${where}. List them with agentctl schedule list.`);
  let description: ScheduleDescription;
  try {
    description = await handle.describe();
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) throw unknown();
    throw error;
  }
  const agentRuns = description.action.workflowType === AGENT_RUN_WORKFLOW_TYPE;
  if (scope.taskQueue !== undefined && (!agentRuns || description.action.taskQueue !== scope.taskQueue)) throw unknown();
  if (!agentRuns) throw new UnknownScheduleError(`Schedule "${name}" starts ${description.action.workflowType}, not agent runs; manage it with the temporal CLI.`);
  return { handle, description };
}

