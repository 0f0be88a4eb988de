/**
 * The client's named errors, one place for all of them: each says what failed and what a person can
 * do about it. The CLI maps them to exit codes and one clear line on stderr. All of them extend
 * DurableAgentError (`code`, `retryable`), as the contract's errors do.
 */
import { DurableAgentError } from '../contract/durable-agent-error';
import type { RunOutcome } from './run-outcome';

// Thrown by the worker as well as the client, so it lives in the contract; re-exported here as before.
export { TemporalUnreachableError } from '../contract/errors';

/** A mistake in how the CLI was called; printed with the command's usage, exit code 2. */
export class UsageError extends DurableAgentError {
  override readonly name = 'UsageError';
  readonly code = 'USAGE';
  readonly retryable = false;
}

/** The run cannot be resumed (still running, succeeded, failed, or already resumed); the message says why. */
export class RunNotResumableError extends DurableAgentError {
  override readonly name = 'RunNotResumableError';
  readonly code = 'RUN_NOT_RESUMABLE';
  readonly retryable = false;
}

/** The run input given to `startRun` failed validation; the message lists each problem. */
export class InvalidRunRequestError extends DurableAgentError {
  override readonly name = 'InvalidRunRequestError';
  readonly code = 'RUN_REQUEST_INVALID';
  readonly retryable = false;
}

/** The run has no call waiting for a decision. */
export class NoPendingApprovalError extends DurableAgentError {
  override readonly name = 'NoPendingApprovalError';
  readonly code = 'NO_PENDING_APPROVAL';
  readonly retryable = false;
}

/** Several calls wait and the person did not say which one; the message lists them. */
export class AmbiguousApprovalError extends DurableAgentError {
  override readonly name = 'AmbiguousApprovalError';
  readonly code = 'AMBIGUOUS_APPROVAL';
  readonly retryable = false;
}

/** The run refused the decision or reply (unknown or already decided call, no question waiting, malformed). */
export class DecisionRefusedError extends DurableAgentError {
  override readonly name = 'DecisionRefusedError';
  readonly code = 'DECISION_REFUSED';
  /**
   * Whether sending the same decision again may be applied: true when the run had no handler ready
   * (an update that met a run between two links), false when the run refused it on its merits.
   */
  readonly retryable: boolean;
  /** The run's failure type when the refusal came as a Temporal failure (e.g. `DecisionRefused`). */
  readonly failureType: string | undefined;

  constructor(message?: string, options: { cause?: unknown; failureType?: string; retryable?: boolean } = {}) {
    super(message, options);
    this.retryable = options.retryable ?? false;
    this.failureType = options.failureType;
  }
}

/** No worker answered in time: the run's worker is probably down. Retrying once one runs can help. */
export class NoWorkerAnsweredError extends DurableAgentError {
  override readonly name = 'NoWorkerAnsweredError';
  readonly code = 'NO_WORKER_ANSWERED';
  readonly retryable = true;
}


/** A named error for revoking what was never chosen, so the person sees what is remembered instead. */
export class NoSuchPreferenceError extends DurableAgentError {
  override readonly name = 'NoSuchPreferenceError';
  readonly code = 'NO_SUCH_PREFERENCE';
  readonly retryable = false;
}

/** An approver key cannot be made or used: a name unfit for a file name, a key that exists, an unreadable key file. */
export class ApproverKeyError extends DurableAgentError {
  override readonly name = 'ApproverKeyError';
  readonly code = 'APPROVER_KEY_INVALID';
  readonly retryable = false;
}

/** A console variable (AGENT_CONSOLE_*) has a value the console cannot use; the message names it. */
export class ConsoleSettingsError extends DurableAgentError {
  override readonly name = 'ConsoleSettingsError';
  readonly code = 'CONSOLE_SETTINGS_INVALID';
  readonly retryable = false;
}

/** A run did not complete (it failed, was cancelled, terminated or timed out) when its result was asked for. */
export class RunDidNotCompleteError extends DurableAgentError {
  override readonly name = 'RunDidNotCompleteError';
  readonly code = 'RUN_DID_NOT_COMPLETE';
  readonly retryable = false;
  /** How the run ended (`failed` with its failure type and message, `cancelled`, ...), when known. */
  readonly outcome: RunOutcome | undefined;

  constructor(message?: string, options: { cause?: unknown; outcome?: RunOutcome } = {}) {
    super(message, options);
    this.outcome = options.outcome;
  }
}

/** What a caller waited for (an approval, a question) did not come within the time it gave. */
export class RunWaitTimeoutError extends DurableAgentError {
  override readonly name: string = 'RunWaitTimeoutError';
  readonly code: string = 'RUN_WAIT_TIMEOUT';
  readonly retryable: boolean = true;
}

/**
 * The run ended while a caller waited for something of it (an approval, a question): nothing more
 * will come. `cause` is the run's failure when it failed; `outcome` says how it ended. It extends
 * RunWaitTimeoutError, which it was before it had a class of its own, so existing catches still hold.
 */
export class RunEndedWhileWaitingError extends RunWaitTimeoutError {
  override readonly name = 'RunEndedWhileWaitingError';
  override readonly code = 'RUN_ENDED_WHILE_WAITING';
  override readonly retryable = false;
  readonly outcome: RunOutcome | undefined;

  constructor(message?: string, options: { cause?: unknown; outcome?: RunOutcome } = {}) {
    super(message, options);
    this.outcome = options.outcome;
  }
}

/** The run cannot be forked at that point (no such run, an iteration it never completed); the message says why. */
export class RunNotForkableError extends DurableAgentError {
  override readonly name = 'RunNotForkableError';
  readonly code = 'RUN_NOT_FORKABLE';
  readonly retryable = false;
}

/** A schedule cannot be made as asked: a cron or time zone that does not parse, a bad name or overlap; the message says which and what is expected. */
export class InvalidScheduleError extends DurableAgentError {
  override readonly name = 'InvalidScheduleError';
  readonly code = 'SCHEDULE_INVALID';
  readonly retryable = false;
}

/** A schedule of that name exists in the namespace; nothing was changed. */
export class ScheduleExistsError extends DurableAgentError {
  override readonly name = 'ScheduleExistsError';
  readonly code = 'SCHEDULE_EXISTS';
  readonly retryable = false;
}

/** No agent schedule has that name (none at all, or one that does not start agent runs); the message says which. */
export class UnknownScheduleError extends DurableAgentError {
  override readonly name = 'UnknownScheduleError';
  readonly code = 'SCHEDULE_UNKNOWN';
  readonly retryable = false;
}
