// What an "always" or "never" remembers for shell calls: the parsed command, not the whole tool.
import { describe, expect, it } from 'vitest';
import type { ShellAnalysis } from '../../../src/contract/shell-analysis';
import { toStatus } from '../../../src/core/machine/run-status';
import { call, Machine } from './state-factory';

describe('what an "always" remembers', () => {
  /** What the workflow's shell parser reports for a plain line of literal words. */
  const understood = (command: string): ShellAnalysis => ({
    understood: true,
    problems: [],
    commands: [{ words: command.split(' ').map((text) => ({ text, literal: true, glob: false })), assignments: [], source: command }],
    writes: [],
  });
  /** A model reply of shell calls, each with the analysis the workflow made of it. */
  function shellTurn(m: Machine, calls: [id: string, command: string, analysis?: ShellAnalysis][]): Machine {
    m.send({ type: 'model_call_started' });
    return m.send({
      type: 'model_replied',
      message: { role: 'assistant', content: calls.map(([id, command]) => call(id, 'shell', { command })) },
      usage: { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      promptChars: 400,
      storedCount: m.state.messages.length + 1,
      storedTag: 't',
      analyses: Object.fromEntries(calls.map(([id, command, analysis]) => [id, analysis ?? understood(command)])),
    });
  }
  const always = (m: Machine, callId: string, extra: { prefix?: string } = {}) =>
    m.send({ type: 'decision', decision: { callId, decision: 'approve_always', approver: 'ana', ...extra }, via: 'update', verified: false });

  it('remembers the exact arguments for a tool with no command or path: the same arguments run, others still ask', () => {
    const m = new Machine().reply(call('a', 'deploy', { env: 'prod', tag: 'v1' }), call('b', 'deploy', { tag: 'v1', env: 'prod' }), call('c', 'deploy', { env: 'staging', tag: 'v1' }));
    always(m, 'a');
    expect(m.state.unsavedPreferences).toHaveLength(1);
    expect(m.state.unsavedPreferences[0]!.match).not.toEqual({ kind: 'tool' });
    expect(m.call('b')!.stage.kind).toBe('run');
    expect(m.call('c')!.stage.kind).toBe('person');
  });

  it('remembers commands or paths starting with a prefix the person gives', () => {
    const shell = shellTurn(new Machine(), [['a', 'npm test'], ['b', 'npm test -- --watch'], ['c', 'npm publish']]);
    always(shell, 'a', { prefix: 'npm test' });
    expect(shell.call('b')!.stage.kind).toBe('run');
    expect(shell.call('c')!.stage.kind).toBe('person');

    const files = new Machine().reply(
      call('a', 'write_file', { path: 'docs/a.md', content: '1' }),
      call('b', 'write_file', { path: 'docs/b.md', content: '2' }),
      call('c', 'write_file', { path: 'src/c.ts', content: '3' }),
    );
    always(files, 'a', { prefix: 'docs/' });
    expect(files.call('b')!.stage.kind).toBe('run');
    expect(files.call('c')!.stage.kind).toBe('person');
  });

  it('decides a shell command the parser did not understand once, remembers nothing, and says so in warnings', () => {
    const unclear: ShellAnalysis = { understood: false, problems: ['the command name is computed'], commands: [], writes: [] };
    const m = shellTurn(new Machine(), [['a', '$TOOL run', unclear], ['b', '$TOOL run', unclear]]);
    always(m, 'a');
    expect(m.call('a')!.stage.kind).toBe('run');
    expect(m.call('b')!.stage.kind).toBe('person');
    expect(m.state.unsavedPreferences).toEqual([]);
    expect(m.state.preferences).toEqual([]);
    expect(toStatus(m.state).warnings).toEqual([expect.stringContaining('applied to this call only')]);
  });
});
