// Settings are checked all at once: a person fixing their environment sees every bad variable in one
// message, not one per start.

/** Runs a parser that throws a named error of its own, collecting its message as a problem. */
export function collect<T>(problems: string[], parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    problems.push((error as Error).message);
    return undefined;
  }
}
