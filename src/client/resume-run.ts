import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import type { AgentRunWorkflow } from '../contract/agent-run-api';
import type { AgentRunInput } from '../contract/run-input';
import type { AgentRunResult } from '../contract/run-result';
import { startRun } from './start-run';
import { NoWorkerAnsweredError, RunNotResumableError } from './errors';
import { withWorkerDeadline } from './approval-helpers';
import { checkRequester, requestedBy } from './run-requester';
import { checkpointQuery } from '../workflows/definitions';
import type { RunState } from '../core/machine/run-state';

/** Everything needed to start the follow-up run; built without starting anything, so it can be shown or tested. */
export interface ResumePlan {
  workflowId: string;
  input: AgentRunInput;
  memo: { resumedFrom: string; resumedFromRunId: string; requestedBy?: string };
}

/** `run-7` → `run-7-r2`, `run-7-r2` → `run-7-r3`: the chain of resumptions stays readable. */
export function nextResumeId(workflowId: string): string {
  const match = /^(.*)-r(\d+)$/.exec(workflowId);
  return match ? `${match[1]}-r${Number(match[2]) + 1}` : `${workflowId}-r2`;
}

/** Why a run that ended this way needs no follow-up, or undefined when it does. */
function finished(result: AgentRunResult): string | undefined {
  if (result.status === 'max_iterations' || result.status === 'budget_exhausted') return undefined;
  if (result.completion?.status === 'blocked' || result.completion?.status === 'partial') return undefined;
  if (result.status === 'guardrail_tripped') return 'was stopped by a guardrail; resuming it would meet the same guardrail (start a new run instead)';
  return 'completed with success; there is nothing to resume (start a new run for new work)';
}

/**
 * The input the closed run was started with, read from its latest link's first history event. A
 * link's input is the original input plus the checkpoint, which is dropped, as is the cap (the
 * resumed run's comes from the checkpoint, raised by `maxIterations` when asked). Every resumed run is
 * started from this whole input (approvers, network, outputSchema, subAgents, followUps, ...):
 * rebuilding it field by field once dropped the approvers, and a run limited to some approvers came
 * back open to everyone on the agent's list.
 */
export async function readRunInput(client: Client, workflowId: string, runId: string): Promise<AgentRunInput> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const input = await decodeFromPayloadsAtIndex<AgentRunInput>(client.workflow.options.loadedDataConverter, 0, started?.input?.payloads);
  const { checkpoint: _checkpoint, resumedFrom: _resumedFrom, requestedBy: _request, maxIterations: _cap, copyWorkspaceOf: _copied, ...rest } = input;
  return rest;
}

/**
 * Builds the follow-up of an ended run: one that stopped at its iteration cap, ended blocked or
 * partial, failed or was cancelled. There is one path: the new run continues the earlier run's whole
 * state (conversation, tasks, pending approvals, choices, usage), read with the `checkpoint` query, and
 * its whole input. A closed run's query is answered by a worker replaying its history, so a worker
 * must be running; without one nothing is started. Refuses a run that is still going or succeeded.
 */
export async function planResume(
  client: Client,
  workflowId: string,
  options: { maxIterations?: number; workerTimeoutMs?: number; requestedBy?: string } = {},
): Promise<ResumePlan> {
  const handle = client.workflow.getHandle<AgentRunWorkflow>(workflowId);
  const description = await handle.describe();
  const state = description.status.name;
  if (state === 'RUNNING') {
    throw new RunNotResumableError(`Run ${workflowId} is still running; resume it once it has stopped (or cancel it first).`);
  }
  if (!['COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT'].includes(state)) {
    throw new RunNotResumableError(`Run ${workflowId} ended ${state.toLowerCase()}; it cannot be resumed.`);
  }
  if (state === 'COMPLETED') {
    const refusal = finished(await handle.result());
    if (refusal) throw new RunNotResumableError(`Run ${workflowId} ${refusal}.`);
  }
  const nextId = nextResumeId(workflowId);
  // A closed workflow id may be reused by default, so "already resumed" has to be looked up.
  if (await exists(client, nextId)) throw alreadyResumed(workflowId, nextId);
  const checkpoint = await readCheckpoint(handle, state, options.workerTimeoutMs);
  checkRequester(checkpoint, workflowId, 'resume', options.requestedBy);
  const requester = options.requestedBy;
  const request = requester === undefined ? {} : { requestedBy: requestedBy(client, { kind: 'resume', workflowId: nextId, from: workflowId, requester }) };
  // A person resumes the run, not its parent: a resumed sub-agent run stands alone, so `parent` stays behind.
  const { parent: _parent, ...previous } = await readRunInput(client, workflowId, description.runId);
  return {
    workflowId: nextId,
    // The workflow raises the checkpoint's cap (run-state-init.ts): by `maxIterations` more when given.
    input: { ...previous, ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}), checkpoint, resumedFrom: workflowId, ...request },
    memo: { resumedFrom: workflowId, resumedFromRunId: description.runId, ...(requester === undefined ? {} : { requestedBy: requester }) },
  };
}

async function readCheckpoint(handle: WorkflowHandle<AgentRunWorkflow>, state: string, timeoutMs?: number): Promise<RunState> {
  const workflowId = handle.workflowId;
  try {
    return await withWorkerDeadline(handle, 'the checkpoint query', () => handle.query(checkpointQuery), timeoutMs);
  } catch (error) {
    if (error instanceof NoWorkerAnsweredError) {
      throw new NoWorkerAnsweredError(
        `${error.message} Reading the state of ended run ${workflowId} needs a worker to replay it, so nothing was started: ` +
          'start one with npm run worker, then retry.',
      );
    }
    throw new RunNotResumableError(
      `Run ${workflowId} ended ${state.toLowerCase()}, and its state could not be read (${(error as Error).message}). ` +
        'It failed before it started working; start a new run instead.',
    );
  }
}

/** Starts the run a plan describes; a second resume of the same run is refused, naming the first. */
export async function startResumedRun(client: Client, plan: ResumePlan, taskQueue: string): Promise<WorkflowHandle<AgentRunWorkflow>> {
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
  options: { taskQueue: string; maxIterations?: number; workerTimeoutMs?: number; requestedBy?: string },
): Promise<{ plan: ResumePlan; handle: WorkflowHandle<AgentRunWorkflow> }> {
  const plan = await planResume(client, workflowId, options);
  return { plan, handle: await startResumedRun(client, plan, options.taskQueue) };
}
