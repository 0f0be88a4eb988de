// Who let a call run, and whether it may write: the permission the state machine gives each call it
// lets run, without a server. The end-to-end half is test/workflows/trust-boundary/permission.test.ts.
import { describe, expect, it } from 'vitest';
import type { ShellAnalysis } from '../../../src/contract/shell-analysis';
import { permissionOf } from '../../../src/core/machine/call-records';
import type { TurnCall } from '../../../src/core/machine/run-state';
import type { Decision } from '../../../src/contract/decision';
import { call, Machine, runState } from './state-factory';

/** A parse of plain literal words, with the redirection targets the analysis found. */
const parsed = (command: string, writes: string[] = []): ShellAnalysis => ({
  understood: true,
  problems: [],
  commands: [{ words: command.split(' ').map((text) => ({ text, literal: true, glob: false })), assignments: [], source: command }],
  writes: writes.map((target) => ({ target, insideWorkspace: true })),
});

function shellTurn(m: Machine, calls: [id: string, command: string, writes?: string[]][]): Machine {
  m.send({ type: 'model_call_started' });
  return m.send({
    type: 'model_replied',
    message: { role: 'assistant', content: calls.map(([id, command]) => call(id, 'shell', { command })) },
    usage: { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    promptChars: 400,
    storedCount: m.state.messages.length + 1,
    storedTag: 't',
    analyses: Object.fromEntries(calls.map(([id, command, writes]) => [id, parsed(command, writes)])),
  });
}

const stageOf = (m: Machine, id: string) => m.call(id)!.stage;
const approveAlways = (m: Machine, callId: string) =>
  m.send({ type: 'decision', decision: { callId, decision: 'approve_always', approver: 'ana' }, via: 'update', verified: false });

describe('the permission of a call', () => {
  it('is the rule\'s, read-only, for a read tool the default lets through and for an allow rule without "writes"', () => {
    const base = runState();
    const m = new Machine(runState({ input: { ...base.input, toolApproval: { alwaysApproved: ['write_file'] } } }));
    m.reply(call('r', 'read_file', { path: 'x' }), call('w', 'write_file', { path: 'y', content: '1' }));
    expect(stageOf(m, 'r')).toEqual({ kind: 'run', permission: { by: 'rule', writes: false, network: false }, started: false });
    expect(stageOf(m, 'w')).toEqual({ kind: 'run', permission: { by: 'rule', writes: false, network: false }, started: false });
  });

  it('may write when the allow rule says "writes": true', () => {
    const base = runState();
    const m = new Machine(runState({ input: { ...base.input, toolApproval: { alwaysApproved: [{ tool: 'write_file', writes: true }] } } }));
    m.reply(call('w', 'write_file', { path: 'y', content: '1' }));
    expect(stageOf(m, 'w')).toEqual({ kind: 'run', permission: { by: 'rule', writes: true, network: false }, started: false });
  });

  it('is the person\'s, with writes, for the call a person approved', () => {
    const m = new Machine().reply(call('w', 'write_file', { path: 'y', content: '1' }), call('s', 'deploy', { env: 'prod' }));
    m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve', approver: 'ana' }, via: 'signal', verified: false });
    approveAlways(m, 's');
    expect(stageOf(m, 'w')).toEqual({ kind: 'run', permission: { by: 'person', writes: true, network: true }, started: false });
    expect(stageOf(m, 's')).toEqual({ kind: 'run', permission: { by: 'person', writes: true, network: true }, started: false });
  });

  it('remembers "writes" with an "always" given for a command that writes, and not with one for a command that only reads', () => {
    const m = shellTurn(new Machine(), [['a', 'echo hi', ['out.txt']], ['b', 'ls']]);
    approveAlways(m, 'a');
    approveAlways(m, 'b');
    expect(m.state.unsavedPreferences.map((r) => [r.match.kind === 'command' ? r.match.pattern.pattern : '?', r.writes])).toEqual([
      ['echo hi', true],
      ['ls', false],
    ]);
    // The next turn's calls run under those choices, unseen: writes as the choice says.
    m.send({ type: 'preferences_saved', count: 2 });
    for (const id of ['a', 'b']) {
      m.send({ type: 'tool_started', callId: id }).send({ type: 'tool_finished', callId: id, result: { success: true, shouldContinue: true, output: '' }, durationMs: 1 });
    }
    const next = shellTurn(m, [
      ['c', 'echo hi', ['out.txt']],
      ['d', 'ls'],
    ]);
    expect(stageOf(next, 'c')).toEqual({ kind: 'run', permission: { by: 'rule', writes: true, network: false }, started: false });
    expect(stageOf(next, 'd')).toEqual({ kind: 'run', permission: { by: 'rule', writes: false, network: false }, started: false });
  });

  it('gives a write tool\'s "always" writes, and the other waiting calls it settles run as that choice allows', () => {
    const m = new Machine().reply(call('a', 'write_file', { path: 'notes.md', content: '1' }), call('b', 'write_file', { path: 'notes.md', content: '2' }));
    approveAlways(m, 'a');
    expect(m.state.unsavedPreferences).toEqual([expect.objectContaining({ preference: 'always', writes: true })]);
    expect(stageOf(m, 'a')).toEqual({ kind: 'run', permission: { by: 'person', writes: true, network: true }, started: false });
    expect(stageOf(m, 'b')).toEqual({ kind: 'run', permission: { by: 'rule', writes: true, network: false }, started: false });
  });

  it('stores no "writes" with a "never"', () => {
    const m = new Machine().reply(call('a', 'write_file', { path: 'notes.md', content: '1' }));
    m.send({ type: 'decision', decision: { callId: 'a', decision: 'reject_always', approver: 'ana' }, via: 'update', verified: false });
    expect(m.state.unsavedPreferences[0]).not.toHaveProperty('writes');
  });

  it('is read-only for a call the agent\'s approval handler allowed: no person saw it', () => {
    const base = runState();
    const m = new Machine(runState({ agent: { ...base.agent, approvalHandler: true } })).reply(call('w', 'write_file', { path: 'y', content: '1' }));
    m.send({ type: 'calls_judged', verdicts: [{ callId: 'w', verdict: 'allow', reason: 'fine' }] });
    expect(stageOf(m, 'w')).toEqual({ kind: 'run', permission: { by: 'rule', writes: false, network: false }, started: false });
  });
});

describe('the network of a call', () => {
  it('is granted only by an allow rule that says "network": true', () => {
    const base = runState();
    const m = new Machine(runState({ input: { ...base.input, network: true, toolApproval: { alwaysApproved: [{ tool: 'shell', command: 'git fetch', network: true }, { tool: 'shell', command: 'ls' }] } } }));
    shellTurn(m, [['f', 'git fetch'], ['l', 'ls']]);
    expect(stageOf(m, 'f')).toEqual({ kind: 'run', permission: { by: 'rule', writes: false, network: true }, started: false });
    expect(stageOf(m, 'l')).toEqual({ kind: 'run', permission: { by: 'rule', writes: false, network: false }, started: false });
  });

  it('is remembered with an "always" given in a run that has the network, and the calls it settles run with it', () => {
    const base = runState();
    const m = shellTurn(new Machine(runState({ input: { ...base.input, network: true } })), [['a', 'git fetch'], ['b', 'git fetch']]);
    approveAlways(m, 'a');
    expect(m.state.unsavedPreferences).toEqual([expect.objectContaining({ preference: 'always', network: true })]);
    expect(stageOf(m, 'a')).toEqual({ kind: 'run', permission: { by: 'person', writes: true, network: true }, started: false });
    expect(stageOf(m, 'b')).toEqual({ kind: 'run', permission: { by: 'rule', writes: false, network: true }, started: false });
  });

  it('is not remembered with an "always" given in a run without the network', () => {
    const m = shellTurn(new Machine(), [['a', 'git fetch']]);
    approveAlways(m, 'a');
    expect(m.state.unsavedPreferences).toEqual([expect.objectContaining({ preference: 'always', network: false })]);
  });
});

describe('permissionOf, for checkpoints from before calls carried a permission', () => {
  const letRun = (id: string): TurnCall => ({ id, name: 'write_file', input: {}, stage: { kind: 'run', started: false } });
  const decided = (callId: string, decision: Decision['decision'], via: Decision['via']): Decision => ({ callId, tool: 'write_file', decision, decidedAt: '2026-11-23T10:00:00.000Z', via });

  it('reads a person\'s approval from the run\'s decisions, and gives everything else the least', () => {
    const state = runState({
      decisions: [decided('p', 'approve', 'signal'), decided('q', 'approve_always', 'update'), decided('h', 'handler_allow', 'handler'), decided('x', 'approve', 'policy')],
    });
    expect(permissionOf(state, letRun('p'))).toEqual({ by: 'person', writes: true, network: true });
    expect(permissionOf(state, letRun('q'))).toEqual({ by: 'person', writes: true, network: true });
    expect(permissionOf(state, letRun('h'))).toEqual({ by: 'rule', writes: false, network: false });
    expect(permissionOf(state, letRun('x'))).toEqual({ by: 'rule', writes: false, network: false });
    expect(permissionOf(state, letRun('none'))).toEqual({ by: 'rule', writes: false, network: false });
  });

  it('takes the stage\'s own permission when it has one', () => {
    const state = runState({ decisions: [decided('p', 'approve', 'signal')] });
    expect(permissionOf(state, { ...letRun('p'), stage: { kind: 'run', permission: { by: 'rule', writes: false, network: false }, started: false } })).toEqual({ by: 'rule', writes: false, network: false });
  });
});
