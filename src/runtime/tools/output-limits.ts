/**
 * Caps on what a tool may put into the conversation. Every byte a tool returns is sent to the model
 * on every later turn (until compaction), so outputs are previews unless the agent asks for more.
 */
export const OutputLimits = {
  /** Characters `read_file` shows unless `full` is set. */
  previewChars: 1_000,
  /** Hard cap on any single tool output, `full` reads included. */
  maxOutputChars: 24_000,
  /** Entries `list_files` returns. */
  maxListEntries: 300,
  /** Matches `search_files` returns. */
  maxSearchMatches: 60,
} as const;

/**
 * Truncates `text` to `limit` characters and says how to get the rest, so the model knows the output
 * is partial rather than mistaking a preview for the whole thing.
 */
export function capOutput(text: string, limit: number = OutputLimits.maxOutputChars, hint?: string): string {
  if (text.length <= limit) return text;
  const more = hint ?? 'narrow the request (a range, a search or a more specific command) to see the rest';
  return `${text.slice(0, limit)}\n[output truncated: showing ${limit} of ${text.length} characters; ${more}]`;
}
