/**
 * Named errors of the shell rule machinery. Each says what failed and how to fix it; none of them is
 * worth retrying, because they come from what a person wrote.
 */

/** An approval rule for the `shell` tool is not one simple command of literal words. */
export class InvalidCommandPatternError extends Error {
  override readonly name = 'InvalidCommandPatternError';

  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super(`Invalid shell command pattern "${pattern}": ${reason}.`);
  }
}
