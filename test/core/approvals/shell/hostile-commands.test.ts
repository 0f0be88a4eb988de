import { afterAll, describe, expect, it } from 'vitest';
import { commandPatternsOf, evaluatePolicy } from '../../../../src/core/approvals/approval-policy';
import { parseCommandPattern } from '../../../../src/runtime/shell/analyze-shell';
import { programName } from '../../../../src/core/approvals/shell/command-wrappers';
import type { CommandPattern } from '../../../../src/contract/shell-analysis';
import { hostileCommands, type HostileEntry } from './hostile-corpus';
import { analyze, scratchWorkspace } from './shell-test-helpers';

/** The policy's verdict for one corpus entry, with the worker's analysis, as a run would get it. */
async function verdictFor(entry: HostileEntry, workspaceRoot: string) {
  const patterns: Record<string, CommandPattern> = {};
  for (const pattern of commandPatternsOf(entry.rules)) patterns[pattern] = await parseCommandPattern(pattern);
  const isCommand = entry.tool === 'shell';
  const input = isCommand ? { command: entry.command } : entry.input;
  const analysis = isCommand ? await analyze(entry.command!, workspaceRoot) : undefined;
  const scope = isCommand ? 'execute' : 'write';
  return { analysis, verdict: evaluatePolicy({ tool: entry.tool, scope, input, analysis, isCommand, run: entry.rules, preferences: entry.preferences, patterns }) };
}

const ACTION = { ask: 'ask', reject: 'reject' } as const;

describe('the hostile-command corpus', () => {
  const workspace = scratchWorkspace();
  afterAll(() => workspace.remove());

  it('covers every analyzer bypass of issue 18 and marks end-to-end cases', () => {
    const bypasses = new Set(hostileCommands.map((entry) => entry.bypass));
    for (const bypass of [1, 2, 3, 4, 5, 6]) expect(bypasses).toContain(bypass);
    expect(new Set(hostileCommands.map((entry) => entry.id)).size).toBe(hostileCommands.length);
    expect(hostileCommands.filter((entry) => entry.endToEnd).map((entry) => entry.bypass)).toEqual(expect.arrayContaining([1, 2, 3, 5]));
  });

  it.each(hostileCommands.map((entry) => [entry.id, entry] as const))('%s: never allowed without a person', async (_id, entry) => {
    const { analysis, verdict } = await verdictFor(entry, workspace.root);
    expect(verdict, entry.note).toMatchObject({ action: ACTION[entry.expected] });
    // What the person sees names the programs behind wrappers and -exec.
    const programs = (analysis?.commands ?? []).flatMap((command) => (command.words[0] ? [programName(command.words[0])] : []));
    for (const program of entry.shows ?? []) expect(programs, entry.note).toContain(program);
    // And the reason the person reads says what could not be modelled.
    if (entry.expected === 'ask' && analysis?.understood === false) expect(verdict.reason).toContain('not fully understood');
  });
});
