/**
 * The client's named errors, one place for all of them: each says what failed and what a person can
 * do about it. The CLI maps them to exit codes and one clear line on stderr.
 */

/** A mistake in how the CLI was called; printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The run cannot be resumed (still running, succeeded, failed, or already resumed); the message says why. */
export class RunNotResumableError extends Error {
  override readonly name = 'RunNotResumableError';
}

/** The run input given to `startRun` failed validation; the message lists each problem. */
export class InvalidRunRequestError extends Error {
  override readonly name = 'InvalidRunRequestError';
}

/** The run has no call waiting for a decision. */
export class NoPendingApprovalError extends Error {
  override readonly name = 'NoPendingApprovalError';
}

/** Several calls wait and the person did not say which one; the message lists them. */
export class AmbiguousApprovalError extends Error {
  override readonly name = 'AmbiguousApprovalError';
}

/** The run refused the decision or reply (unknown or already decided call, no question waiting, malformed). */
export class DecisionRefusedError extends Error {
  override readonly name = 'DecisionRefusedError';
}

/** No worker answered in time: the run's worker is probably down. Retrying once one runs can help. */
export class NoWorkerAnsweredError extends Error {
  override readonly name = 'NoWorkerAnsweredError';
}

/** The server could not be reached; the message says where we tried and how to start one. */
export class TemporalUnreachableError extends Error {
  override readonly name = 'TemporalUnreachableError';
}

/** A named error for revoking what was never chosen, so the person sees what is remembered instead. */
export class NoSuchPreferenceError extends Error {
  override readonly name = 'NoSuchPreferenceError';
}

/** An approver key cannot be made or used: a name unfit for a file name, a key that exists, an unreadable key file. */
export class ApproverKeyError extends Error {
  override readonly name = 'ApproverKeyError';
}

/** A console variable (AGENT_CONSOLE_*) has a value the console cannot use; the message names it. */
export class ConsoleSettingsError extends Error {
  override readonly name = 'ConsoleSettingsError';
}

/** A run did not complete (it failed, was cancelled, terminated or timed out) when its result was asked for. */
export class RunDidNotCompleteError extends Error {
  override readonly name = 'RunDidNotCompleteError';
}

/** What a caller waited for (an approval, a question) did not come within the time it gave. */
export class RunWaitTimeoutError extends Error {
  override readonly name = 'RunWaitTimeoutError';
}

/** The run cannot be forked at that point (no such run, an iteration it never completed); the message says why. */
export class RunNotForkableError extends Error {
  override readonly name = 'RunNotForkableError';
}

/** A schedule cannot be made as asked: a cron or time zone that does not parse, a bad name or overlap; the message says which and what is expected. */
export class InvalidScheduleError extends Error {
  override readonly name = 'InvalidScheduleError';
}

/** A schedule of that name exists in the namespace; nothing was changed. */
export class ScheduleExistsError extends Error {
  override readonly name = 'ScheduleExistsError';
}

/** No agent schedule has that name (none at all, or one that does not start agent runs); the message says which. */
export class UnknownScheduleError extends Error {
  override readonly name = 'UnknownScheduleError';
}
