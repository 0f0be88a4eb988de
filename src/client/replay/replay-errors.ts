/**
 * The replay lab's named errors. Each says what was wrong with the input and what to do; none is
 * raised after a shadow started, so a refused replay changed nothing anywhere. Like every error the
 * package throws, each is a DurableAgentError with a stable `code`; none helps when tried again unchanged.
 */
import { DurableAgentError } from '../../contract/durable-agent-error';

/** There is no such run, or it is still working (neither closed nor parked on a person). */
export class RunNotReplayableError extends DurableAgentError {
  override readonly name = 'RunNotReplayableError';
  readonly code = 'RUN_NOT_REPLAYABLE';
  readonly retryable = false;
}

/** The run's histories could not be read with this release's code, or an export file is not one. */
export class RecordedRunUnreadableError extends DurableAgentError {
  override readonly name = 'RecordedRunUnreadableError';
  readonly code = 'RECORDED_RUN_UNREADABLE';
  readonly retryable = false;
}

/** What the replay needs beyond the history (stored conversation parts, attachments) is gone; the message names it and where it was looked for. */
export class StoredBodiesMissingError extends DurableAgentError {
  override readonly name = 'StoredBodiesMissingError';
  readonly code = 'STORED_BODIES_MISSING';
  readonly retryable = false;
}

/** A model whose cost the report must give has no price; the message names it and how to add one. */
export class ModelNotPricedError extends DurableAgentError {
  override readonly name = 'ModelNotPricedError';
  readonly code = 'MODEL_NOT_PRICED';
  readonly retryable = false;
}

/** The agents to replay with could not be loaded (a file that does not parse, an unknown agent). */
export class ReplayAgentsError extends DurableAgentError {
  override readonly name = 'ReplayAgentsError';
  readonly code = 'REPLAY_AGENTS_INVALID';
  readonly retryable = false;
}
