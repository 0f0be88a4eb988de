import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import type { agentRun } from '../workflows/agent-run';
import type { AgentRunInput, ResumeContext } from '../workflows/run-input';
import type { AgentRunResult } from '../workflows/run-result';
import { startRun } from './start-run';
import { RunNotResumableError } from './errors';
import { withWorkerDeadline } from './approval-helpers';
import { checkpointQuery } from '../workflows/definitions';
import type { RunState } from '../workflows/run-machine/run-state';

/** Everything needed to start the follow-up run; built without starting anything, so it can be shown or tested. */
export interface ResumePlan {
  workflowId: string;
  input: AgentRunInput;
  memo: { resumedFrom: string; resumedFromRunId: string };
}

/** `run-7` → `run-7-r2`, `run-7-r2` → `run-7-r3`: the chain of resumptions stays readable. */
export function nextResumeId(workflowId: string): string {
  const match = /^(.*)-r(\d+)$/.exec(workflowId);
  return match ? `${match[1]}-r${Number(match[2]) + 1}` : `${workflowId}-r2`;
}

/** Why a run that ended this way needs no follow-up, or undefined when it does. */
function finished(result: AgentRunResult): string | undefined {
  if (result.status === 'max_iterations') return undefined;
  if (result.completion?.status === 'blocked' || result.completion?.status === 'partial') return undefined;
  return 'completed with success; there is nothing to resume (start a new run for new work)';
}

function describeOutcome(result: AgentRunResult, iterationsBefore: number): string {
  const total = iterationsBefore + result.iterations;
  const lines =
    result.status === 'max_iterations'
      ? [`The earlier run stopped at its iteration cap after ${result.iterations} iteration(s) (${total} in all), before the work was done.`]
      : [`The earlier run ended ${result.completion!.status} after ${result.iterations} iteration(s): ${result.completion!.summary}`];
  if (result.completion?.next_steps) lines.push(`Its next steps: ${result.completion.next_steps}`);
  if (result.status === 'max_iterations' && result.carryOver.lastAssistantText) {
    lines.push(`Its last message:\n${result.carryOver.lastAssistantText}`);
  }
  return lines.join('\n');
}

/**
 * The input the closed run was started with, read from its latest link's first history event, so
 * resuming needs no worker. A link's input is the original input plus the checkpoint, which is dropped.
 * Every resumed run is started from this whole input (approvers, network, outputSchema, subAgents,
 * followUps, ...): rebuilding it field by field once dropped the approvers, and a run limited to
 * some approvers came back open to everyone on the agent's list.
 */
async function readRunInput(client: Client, workflowId: string, runId: string): Promise<AgentRunInput> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const input = await decodeFromPayloadsAtIndex<AgentRunInput>(client.workflow.options.loadedDataConverter, 0, started?.input?.payloads);
  const { checkpoint: _checkpoint, resumedFrom: _resumedFrom, ...rest } = input;
  return rest;
}

/**
 * Builds the follow-up of a run that stopped at its iteration cap or ended blocked or partial: same
 * agent, task and settings, carrying the task list, saved key points, conversation summary, usage and
 * the iterations spent so far. Refuses a run that is still going or succeeded.
 */
export async function planResume(client: Client, workflowId: string, options: { maxIterations?: number } = {}): Promise<ResumePlan> {
  const handle = client.workflow.getHandle<typeof agentRun>(workflowId);
  const description = await handle.describe();
  const state = description.status.name;
  if (state === 'RUNNING') {
    throw new RunNotResumableError(`Run ${workflowId} is still running; resume it once it has stopped (or cancel it first).`);
  }
  if (state === 'FAILED' || state === 'CANCELLED' || state === 'TERMINATED' || state === 'TIMED_OUT') {
    return planContinuation(client, handle, description.runId, state, options);
  }
  if (state !== 'COMPLETED') {
    throw new RunNotResumableError(`Run ${workflowId} ended ${state.toLowerCase()}; it cannot be resumed.`);
  }
  const result = await handle.result();
  const refusal = finished(result);
  if (refusal) throw new RunNotResumableError(`Run ${workflowId} ${refusal}.`);

  const nextId = nextResumeId(workflowId);
  // A closed workflow id may be reused by default, so "already resumed" has to be looked up.
  if (await exists(client, nextId)) throw alreadyResumed(workflowId, nextId);

  const previous = await readRunInput(client, workflowId, description.runId);
  const iterationsBefore = (previous.resume?.iterationsBefore ?? 0) + result.iterations;
  const resume: ResumeContext = {
    fromWorkflowId: workflowId,
    fromRunId: description.runId,
    previousOutcome: describeOutcome(result, previous.resume?.iterationsBefore ?? 0),
    tasks: result.tasks,
    savedSummaries: result.carryOver.savedSummaries,
    conversationSummary: result.carryOver.conversationSummary,
    usage: result.usage,
    iterationsBefore,
  };
  // A person resumes the run, not its parent: a resumed sub-agent run stands alone, so `parent` stays behind.
  const { parent: _parent, ...carried } = previous;
  return {
    workflowId: nextId,
    input: { ...carried, maxIterations: options.maxIterations ?? previous.maxIterations, resume },
    memo: { resumedFrom: workflowId, resumedFromRunId: description.runId },
  };
}

/**
 * The follow-up of a run that failed or was cancelled: it continues that run's whole state (the
 * conversation, tasks, pending approvals, choices), read with the `checkpoint` query. A closed run's
 * query is answered by a worker replaying its history, so a worker must be running.
 */
async function planContinuation(
  client: Client,
  handle: WorkflowHandle<typeof agentRun>,
  runId: string,
  state: string,
  options: { maxIterations?: number },
): Promise<ResumePlan> {
  const workflowId = handle.workflowId;
  const nextId = nextResumeId(workflowId);
  if (await exists(client, nextId)) throw alreadyResumed(workflowId, nextId);
  let checkpoint: RunState;
  try {
    checkpoint = await withWorkerDeadline(handle, 'the checkpoint query', () => handle.query(checkpointQuery));
  } catch (error) {
    throw new RunNotResumableError(
      `Run ${workflowId} ended ${state.toLowerCase()}, and its state could not be read (${(error as Error).message}). ` +
        'It failed before it started working, or no worker is running to answer; start a worker, or start a new run.',
    );
  }
  const previous = await readRunInput(client, workflowId, runId);
  // More room when asked for; otherwise at least one more iteration than the run had used.
  const maxIterations = options.maxIterations !== undefined ? checkpoint.iteration + options.maxIterations : Math.max(checkpoint.input.maxIterations, checkpoint.iteration + 1);
  return {
    workflowId: nextId,
    // The whole earlier input rides along although the checkpoint's copy governs this run: when this
    // run later stops at its cap and is resumed again, that input is what the next run is built from.
    input: { ...previous, checkpoint: { ...checkpoint, input: { ...checkpoint.input, maxIterations } }, resumedFrom: workflowId },
    memo: { resumedFrom: workflowId, resumedFromRunId: runId },
  };
}

/** Starts the run a plan describes; a second resume of the same run is refused, naming the first. */
export async function startResumedRun(client: Client, plan: ResumePlan, taskQueue: string): Promise<WorkflowHandle<typeof agentRun>> {
  try {
    return await startRun(client, plan.input, { taskQueue, workflowId: plan.workflowId, memo: plan.memo });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    throw alreadyResumed(plan.memo.resumedFrom, plan.workflowId);
  }
}

function alreadyResumed(workflowId: string, resumedAs: string): RunNotResumableError {
  return new RunNotResumableError(
    `Run ${workflowId} was already resumed as ${resumedAs}; resume that run instead (agentctl resume ${resumedAs}).`,
  );
}

async function exists(client: Client, workflowId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/** `planResume` then `startResumedRun`. */
export async function resumeRun(
  client: Client,
  workflowId: string,
  options: { taskQueue: string; maxIterations?: number },
): Promise<{ plan: ResumePlan; handle: WorkflowHandle<typeof agentRun> }> {
  const plan = await planResume(client, workflowId, options);
  return { plan, handle: await startResumedRun(client, plan, options.taskQueue) };
}
