/**
 * The replay lab's named errors. Each says what was wrong with the input and what to do; none is
 * raised after a shadow started, so a refused replay changed nothing anywhere.
 */

/** There is no such run, or it is still working (neither closed nor parked on a person). */
export class RunNotReplayableError extends Error {
  override readonly name = 'RunNotReplayableError';
}

/** The run's histories could not be read with this release's code, or an export file is not one. */
export class RecordedRunUnreadableError extends Error {
  override readonly name = 'RecordedRunUnreadableError';
}

/** What the replay needs beyond the history (stored conversation parts, attachments) is gone; the message names it and where it was looked for. */
export class StoredBodiesMissingError extends Error {
  override readonly name = 'StoredBodiesMissingError';
}

/** A model whose cost the report must give has no price; the message names it and how to add one. */
export class ModelNotPricedError extends Error {
  override readonly name = 'ModelNotPricedError';
}

/** The agents to replay with could not be loaded (a file that does not parse, an unknown agent). */
export class ReplayAgentsError extends Error {
  override readonly name = 'ReplayAgentsError';
}
