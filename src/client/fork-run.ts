import type { Client, WorkflowHandle } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { ForkedFromKey } from '../contract/search-attributes';
import type { AgentRunWorkflow } from '../contract/agent-run-api';
import type { AgentRunInput } from '../contract/run-input';
import { forkState } from '../core/machine/fork-state';
import { readForkPoint } from './fork-point';
import { readRunInput } from './resume-run';
import { startRun } from './start-run';
import { UsageError } from './errors';
import { queryStatus } from './approval-helpers';
import { checkRequester, requestedBy, strictestMode } from './run-requester';

/** Everything needed to start the fork; built without starting anything, so it can be shown or tested. */
export interface ForkPlan {
  workflowId: string;
  input: AgentRunInput;
  memo: { forkedFrom: string; forkedFromRunId: string; forkedAtIteration: number; requestedBy?: string };
  /** What happens to the files: a shared workspace is not rolled back; a per-run one is copied as it is now. */
  workspace: 'shared' | 'per-run';
}

/** `run-7` at iteration 3 → `run-7-fork3-k2x9`: readable, and a second fork of the same point gets its own id. */
export function forkId(workflowId: string, iteration: number): string {
  return `${workflowId}-fork${iteration}-${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Plans a fork of `workflowId` after iteration `iteration`: the new run continues from the state the
 * original had then (read by replaying its history, see fork-point.ts), with the original's whole input
 * (approvers, network, output schema...), under a fresh id, its memo (and its `ForkedFrom` search
 * attribute, where the namespace has it) naming its origin. The original
 * is only read: a running one goes on untouched.
 */
export async function planFork(
  client: Client,
  workflowId: string,
  options: { iteration: number; task?: string; requestedBy?: string },
): Promise<ForkPlan> {
  if (!Number.isInteger(options.iteration) || options.iteration < 1) throw new UsageError(`--iteration must be a whole number from 1, not "${options.iteration}"`);
  const point = await readForkPoint(client, workflowId, options.iteration);
  checkRequester(point.state, workflowId, 'fork', options.requestedBy);
  const checkpoint = forkState(point.state, { from: workflowId, iteration: options.iteration, task: options.task });
  // Never looser than the original is now: the mode it has (a running run answers), or had last.
  const now = await queryStatus(client.workflow.getHandle(workflowId), 3_000).catch(() => undefined);
  checkpoint.mode = strictestMode(checkpoint.mode, point.latestMode, now?.mode) ?? checkpoint.mode;
  // A person forks the run, not its parent: the fork stands alone, as a resumed run does.
  const { parent: _parent, ...previous } = await readRunInput(client, workflowId, point.runId);
  const id = forkId(workflowId, options.iteration);
  const workspace = point.state.agent.workspace === 'per-run' ? 'per-run' : 'shared';
  const requester = options.requestedBy;
  const request = requester === undefined ? {} : { requestedBy: requestedBy(client, { kind: 'fork', workflowId: id, from: workflowId, requester }) };
  return {
    workflowId: id,
    input: { ...previous, checkpoint, resumedFrom: workflowId, ...request, ...(workspace === 'per-run' ? { copyWorkspaceOf: workflowId } : {}) },
    memo: { forkedFrom: workflowId, forkedFromRunId: point.runId, forkedAtIteration: options.iteration, ...(requester === undefined ? {} : { requestedBy: requester }) },
    workspace,
  };
}

/** `planFork`, then starts the fork on `taskQueue`. */
export async function forkRun(
  client: Client,
  workflowId: string,
  options: { iteration: number; task?: string; taskQueue: string; requestedBy?: string },
): Promise<{ plan: ForkPlan; handle: WorkflowHandle<AgentRunWorkflow> }> {
  const plan = await planFork(client, workflowId, options);
  const start = (searchAttributes: SearchAttributePair[]) => startRun(client, plan.input, { taskQueue: options.taskQueue, workflowId: plan.workflowId, memo: plan.memo, searchAttributes });
  try {
    return { plan, handle: await start([{ key: ForkedFromKey, value: workflowId }]) };
  } catch (error) {
    // A namespace without ForkedFrom (a worker that may not register it, e.g. on Temporal Cloud) still
    // gets the fork; the memo names its origin either way.
    if (!/ForkedFrom/.test((error as Error).message)) throw error;
    return { plan, handle: await start([]) };
  }
}

/** What the CLI and the console say about the files, since a fork cannot roll them back. */
export function workspaceNote(plan: ForkPlan): string {
  return plan.workspace === 'per-run'
    ? `The fork works in its own copy of ${plan.memo.forkedFrom}'s folder as it is now (not as it was at iteration ${plan.memo.forkedAtIteration}).`
    : `Files in the shared workspace are not rolled back: the fork sees them as they are now, not as they were at iteration ${plan.memo.forkedAtIteration}.`;
}
