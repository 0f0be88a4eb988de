import { ActivityFailure, ApplicationFailure, patched, workflowInfo } from '@temporalio/workflow';
import { textOf } from '../contract/messages';
import { FailureType } from '../contract/errors';
import type { ParsedRunInput } from '../contract/run-input';
import type { AgentRunResult } from '../contract/run-result';
import type { RunState } from '../core/machine/run-state';
import { runWarnings } from '../core/machine/on-steer';
import { setup } from './activity-stubs';
import { Patches, type Features } from './compat/patches';
import { requesterAuditEntry } from './run-requester';
import { RunDriver, type DriverOptions } from './run-driver';
import { newRunState, stateFromCheckpoint } from './run-state-init';

/**
 * How a link of a run begins and ends, the same for every execution (old ones too: see
 * compat/legacy/): the agent resolved and the state built, the result a finished run returns, the
 * conversation released, and any error made a failure Temporal does not retry.
 */

/** The run's state at the start of this link: a new run's, or the checkpoint's with the person's choices reloaded. */
export async function startLink(input: ParsedRunInput, driverOptions: DriverOptions, ceiling = false): Promise<RunDriver> {
  if (input.checkpoint === undefined) return new RunDriver(await newRunState(input, ceiling), driverOptions);
  const { state: checkpoint, stored, facts } = await stateFromCheckpoint(input);
  const driver = new RunDriver(checkpoint, driverOptions);
  // First, so that nothing of the ended run (its parent, its id) is told about this one.
  if (input.resumedFrom) {
    const { workflowId, runId } = workflowInfo();
    driver.dispatch({ type: 'resumed', from: input.resumedFrom, workflowId, conversationKey: `${workflowId}/${runId}`, moreIterations: input.maxIterations });
  }
  driver.dispatch({ type: 'preferences_reloaded', stored, approverKeys: facts.approverKeys });
  // Issue 32: who asked for this fork or resume is on the audit log before any tool runs (flushed at start).
  const requester = input.resumedFrom === undefined ? undefined : requesterAuditEntry(driver.state, input, facts.approverKeys);
  if (requester && patched(Patches.requesterAudit)) driver.audit(requester);
  // Only a fork's input names a folder to copy, so no earlier history meets this activity. Read from the
  // driver: the `resumed` event gave the run its own id (the checkpoint still holds the original's).
  const { agent, chain, workflowId } = driver.state;
  if (input.copyWorkspaceOf && agent.workspace === 'per-run' && chain.link === 0) await setup.copyWorkspace({ from: input.copyWorkspaceOf, to: workflowId });
  return driver;
}

/** Deletes the run's conversation from the model activity's store; best effort, the run is over. */
export async function release(state: RunState, features: Features): Promise<void> {
  if (!features.releaseConversation) return;
  await setup.releaseConversation({ owner: state.workflowId }).catch(() => undefined);
}

/** Releases the conversation of a run that ended, and returns its result (or throws its failure). */
export async function finish(state: RunState, features: Features): Promise<AgentRunResult> {
  await release(state, features);
  return resultOf(state);
}

/** The result of a run that ended; a run that failed throws its failure instead. */
export function resultOf(state: RunState, costUsd?: number): AgentRunResult {
  const outcome = state.outcome!;
  if (outcome.kind === 'failed') throw ApplicationFailure.create({ type: outcome.type, nonRetryable: true, message: outcome.message });
  const lastAssistant = [...state.messages].reverse().find((m) => m.role === 'assistant');
  const warnings = runWarnings(state);
  return {
    status: outcome.kind,
    completion: state.completion,
    ...(state.output !== undefined ? { output: state.output } : {}),
    ...(outcome.kind === 'guardrail_tripped' ? { guardrail: { name: outcome.guardrail, reason: outcome.reason, step: outcome.step } } : {}),
    ...(state.input.followUps ? { completions: state.thread.completions } : {}),
    iterations: state.iteration,
    usage: state.usage,
    ...(costUsd !== undefined ? { costUsd } : {}),
    tasks: state.tasks,
    agent: state.agent.name,
    workflowId: state.workflowId,
    ...(warnings.length > 0 ? { warnings } : {}),
    carryOver: {
      savedSummaries: state.savedSummaries,
      conversationSummary: state.conversationSummary,
      lastAssistantText: lastAssistant ? textOf(lastAssistant).slice(0, 4_000) : undefined,
    },
  };
}

/** The next link's input: this one's, carrying the whole state as its checkpoint (same workflow id). */
export function nextLinkInput(input: ParsedRunInput, state: RunState): ParsedRunInput {
  const { checkpoint: _previous, resumedFrom: _resumed, ...rest } = input;
  return { ...rest, checkpoint: state };
}

/**
 * Every way a run can fail ends as a non-retryable ApplicationFailure that says what went wrong; an
 * unexpected error must not become a workflow task failure that Temporal retries forever.
 */
export function asRunFailure(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure) {
    const cause = error.cause;
    return ApplicationFailure.create({ type: cause.type ?? undefined, nonRetryable: true, message: cause.message, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return ApplicationFailure.create({ type: FailureType.RunFailed, nonRetryable: true, message, cause: error instanceof Error ? error : undefined });
}
