import { z } from 'zod';

/**
 * What the approval policy learns about a `shell` command line: every simple command in it and every
 * file it writes through a redirection. The Node side (`analyze-shell.ts`) fills these shapes with a
 * real shell parser; the workflow side only reads them, so this file must stay pure (zod only): it is
 * bundled into Temporal workflow code.
 */

/** One word of a command after the shell's quote removal. */
export const ShellWordSchema = z.object({
  /** The word with quotes and escapes removed; expansions keep their source text (`$HOME`). */
  text: z.string(),
  /** False when any part is expanded at run time ($x, ${x}, $(..), `..`, $((..)), <(..), ~, {a,b}). */
  literal: z.boolean(),
  /** True when an unquoted `*`, `?` or `[` makes the shell expand the word to file names. */
  glob: z.boolean(),
});
export type ShellWord = z.infer<typeof ShellWordSchema>;

/**
 * One simple command. A line of bare assignments (`PATH=/tmp`) is listed too, with no words, because
 * it changes what later commands run; no rule matches it, so it always reaches a person.
 */
export const SimpleCommandSchema = z.object({
  /** The command name first, then its arguments; assignments in front of the name are not words. */
  words: z.array(ShellWordSchema),
  /** Assignments in front of the command, as written (`FOO=bar`). */
  assignments: z.array(z.string()),
  /** This simple command's own source text, for rules that still match with a regular expression. */
  source: z.string(),
});
export type SimpleCommand = z.infer<typeof SimpleCommandSchema>;

/** A file an output redirection (`>`, `>>`, `>|`, `&>`, `&>>`) writes. */
export const ShellWriteSchema = z.object({
  /** The destination as written, quotes removed. */
  target: z.string(),
  /** False when the destination leaves the workspace or cannot be known before the command runs. */
  insideWorkspace: z.boolean(),
});
export type ShellWrite = z.infer<typeof ShellWriteSchema>;

export const ShellAnalysisSchema = z.object({
  /**
   * False when some part of the line could hide a command from the analysis (a syntax error, a
   * command name that is computed, a script fed to `sh` on stdin). The commands listed are then only
   * what could be seen: good enough to reject, never enough to allow.
   */
  understood: z.boolean(),
  /** Why the line was not understood, one sentence each; empty when it was. */
  problems: z.array(z.string()),
  commands: z.array(SimpleCommandSchema),
  writes: z.array(ShellWriteSchema),
});
export type ShellAnalysis = z.infer<typeof ShellAnalysisSchema>;

/** An approval rule for the `shell` tool, already split into words by `parseCommandPattern`. */
export const CommandPatternSchema = z.object({
  /** The rule as its author wrote it, for messages. */
  pattern: z.string().min(1),
  /** Literal words; `*` inside a word is the wildcard. */
  words: z.array(z.string()).min(1),
});
export type CommandPattern = z.infer<typeof CommandPatternSchema>;
