import { ApplicationFailure, CancelledFailure, TerminatedFailure, TimeoutFailure, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import type { AgentRunResult } from '../contract/run-result';

/**
 * How a run ended, as the CLI reports it. Temporal hands a cancelled, terminated or failed run to
 * the client as one error type; this tells them apart, so "cancelled" is never shown as a failure.
 */
export type RunOutcome<TOutput = unknown> =
  | { kind: 'completed'; workflowId: string; result: AgentRunResult<TOutput> }
  | { kind: 'failed'; workflowId: string; type?: string; message: string }
  | { kind: 'cancelled'; workflowId: string }
  | { kind: 'terminated'; workflowId: string; reason?: string }
  | { kind: 'timed_out'; workflowId: string };

/** Maps the error `handle.result()` threw to an outcome; errors that are not about the run rethrow. */
export function outcomeOfError(workflowId: string, error: unknown): RunOutcome {
  if (!(error instanceof WorkflowFailedError)) throw error;
  const cause = error.cause;
  if (cause instanceof CancelledFailure) return { kind: 'cancelled', workflowId };
  if (cause instanceof TerminatedFailure) return { kind: 'terminated', workflowId, reason: cause.message || undefined };
  if (cause instanceof TimeoutFailure) return { kind: 'timed_out', workflowId };
  const type = cause instanceof ApplicationFailure ? (cause.type ?? undefined) : undefined;
  return { kind: 'failed', workflowId, type, message: cause?.message ?? error.message };
}

/** What follows "it ended <kind>" in a message: the failure's message or the termination's reason. */
export function endingDetail(outcome: RunOutcome): string {
  if (outcome.kind === 'failed') return `: ${outcome.message}`;
  return outcome.kind === 'terminated' && outcome.reason ? `: ${outcome.reason}` : '';
}

/** The failure underneath the error `handle.result()` threw (the run's own failure), for a `cause`. */
export function failureOf(error: unknown): unknown {
  return error instanceof WorkflowFailedError && error.cause ? error.cause : error;
}

/** Waits for the run to end (following continue-as-new) and says how it ended. */
export async function awaitOutcome(handle: WorkflowHandle): Promise<RunOutcome> {
  try {
    return { kind: 'completed', workflowId: handle.workflowId, result: (await handle.result()) as AgentRunResult };
  } catch (error) {
    return outcomeOfError(handle.workflowId, error);
  }
}

/** Exit code for an outcome: 0 only when the run completed (or is a thread that answered and waits). */
export function exitCodeOf(outcome: RunOutcome | { kind: 'idle' }): number {
  return outcome.kind === 'completed' || outcome.kind === 'idle' ? 0 : 1;
}
