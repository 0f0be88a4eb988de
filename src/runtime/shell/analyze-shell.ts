import { loadBashParser } from '../../core/approvals/shell/bash-parser';
import { collectCommands } from '../../core/approvals/shell/collect-commands';
import type { ShellAnalysis } from '../../contract/shell-analysis';
import { resolveWrites, type WriteTargetOptions } from './write-targets';

export { parseCommandPattern } from '../../core/approvals/shell/command-pattern';
export type { WriteTargetOptions as AnalyzeShellOptions };

/**
 * Reads a `shell` tool command line with a real Bash parser and lists every simple command in it
 * (including those inside `$(..)`, `sh -c '..'` and `eval`) and every file it writes by redirection.
 * Runs on the worker (Node): the parser is WebAssembly, loaded once per process on first use. The
 * result is plain data (`ShellAnalysis`) that workflow code can match rules against.
 */
export async function analyzeShellCommand(command: string, options: WriteTargetOptions): Promise<ShellAnalysis> {
  const parser = await loadBashParser();
  const line = collectCommands(parser, command);
  const { writes, protectedPaths } = resolveWrites(line.events, options);
  // Writing a protected path makes a later, exactly allowed command (`git status`) run code.
  const problems = protectedPaths.length === 0 ? line.problems : [...line.problems, `it names ${protectedPaths.map((p) => `"${p}"`).join(', ')}, a protected path (git config or hooks, env or start-up files); a person decides`];
  return { understood: problems.length === 0, problems, commands: line.commands, writes };
}
