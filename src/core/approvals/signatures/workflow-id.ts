// Workflow ids are shown to people (console, CLI, audit log) and were once part of signed text, so
// ids with characters that hide or reorder what a person reads are refused when a run starts.

/**
 * C0/C1 controls (newlines included) and Unicode format characters: the bidi controls (U+202A-202E,
 * U+2066-2069, U+200E/F, U+061C), zero-width characters, plus the line and paragraph separators.
 */
const HIDDEN_OR_CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Why `workflowId` cannot name a run, or undefined when it can. */
export function workflowIdProblem(workflowId: string): string | undefined {
  const match = HIDDEN_OR_CONTROL.exec(workflowId);
  if (!match) return undefined;
  const code = `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `workflow id ${JSON.stringify(workflowId)} contains the control or formatting character ${code} at position ${match.index}: use printable characters only`;
}
