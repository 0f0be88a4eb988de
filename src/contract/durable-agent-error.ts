/**
 * The one base class of every error durable-agent throws at a caller: catch `DurableAgentError` to
 * catch any of them, switch on `code` (stable across releases: it is part of the contract, like the
 * class names) and ask `retryable` whether trying the same thing again later can help (a server that
 * was down, a worker that did not answer) or not (a bad definition, a refused decision).
 *
 * Each subclass fixes its own `code` and `retryable`; `cause` (the standard `Error` option) carries
 * what went wrong underneath, e.g. the Temporal failure an update was refused with.
 */
export abstract class DurableAgentError extends Error {
  /** A stable identifier of the kind of error, e.g. `DECISION_REFUSED`. */
  abstract readonly code: string;
  /** Whether the same call may succeed if tried again later, unchanged. */
  abstract readonly retryable: boolean;

  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Whether `error` is any durable-agent error (also across two copies of the package, by shape). */
export function isDurableAgentError(error: unknown): error is DurableAgentError {
  if (error instanceof DurableAgentError) return true;
  const candidate = error as { code?: unknown; retryable?: unknown } | null;
  return error instanceof Error && typeof candidate?.code === 'string' && typeof candidate.retryable === 'boolean';
}
