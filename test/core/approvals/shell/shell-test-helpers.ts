import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { analyzeShellCommand, parseCommandPattern } from '../../../../src/runtime/shell/analyze-shell';
import { commandMatches, describeCommand, type MatchMode } from '../../../../src/core/approvals/shell/match-command';
import type { ShellAnalysis } from '../../../../src/contract/shell-analysis';

/** One scratch workspace per test file; nothing is written to it unless a test does so itself. */
export function scratchWorkspace(): { root: string; remove: () => void } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'shell-rules-')));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const fallbackRoot = path.join(tmpdir(), 'shell-rules-no-such-workspace');

export function analyze(line: string, workspaceRoot = fallbackRoot, cwd?: string): Promise<ShellAnalysis> {
  return analyzeShellCommand(line, { workspaceRoot, cwd });
}

/** The simple commands of a line, each as one readable string. */
export async function commandsOf(line: string): Promise<string[]> {
  return (await analyze(line)).commands.map(describeCommand);
}

/** Whether a rule matches any simple command of the line, the way the policy will ask. */
export async function ruleMatchesLine(rule: string, line: string, mode: MatchMode): Promise<boolean> {
  const pattern = await parseCommandPattern(rule);
  return (await analyze(line)).commands.some((command) => commandMatches(pattern, command, mode));
}

/** The problems of an analysis joined, each without the `(in "...")` excerpt of the line it ends with. */
export function reasons(problems: readonly string[]): string {
  return problems.map((problem) => problem.replace(/ \(in ".*"\)$/s, '')).join('\n');
}
