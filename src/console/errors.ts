import { DurableAgentError } from '../contract/durable-agent-error';
/**
 * The console's named errors. Each says what failed; the HTTP layer maps them to statuses, and the
 * `agentctl console` verb prints their message as one line.
 */

/** The console cannot start as configured: a bad users file, an unusable port or host. */
export class ConsoleConfigError extends DurableAgentError {
  override readonly name = 'ConsoleConfigError';
  readonly code = 'CONSOLE_CONFIG_INVALID';
  readonly retryable = false;
}

/** A request the console refuses before it reaches Temporal (a malformed body); answered with 400. */
export class ConsoleRequestError extends DurableAgentError {
  override readonly name = 'ConsoleRequestError';
  readonly code = 'CONSOLE_REQUEST_INVALID';
  readonly retryable = false;
}
