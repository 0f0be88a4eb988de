// One pass: each transition moves the run forward and says where it stands; the phase and the next
// step are both read from that standing (advance.ts, next-step.ts), never worked out twice.
import { describe, expect, it } from 'vitest';
import { Machine, call, runState } from './state-factory';

const guardedShell = () => {
  const base = runState();
  return runState({ agent: { ...base.agent, guardrails: [{ name: 'no-rm', on: 'tool', onTrip: 'reject_call', tools: ['shell'] }] } });
};

describe('advance', () => {
  it('parks a call for a person while another waits for the tool guardrails: the phase says approval, the step checks the guardrails first', () => {
    const m = new Machine(guardedShell()).reply(call('w', 'write_file', { path: 'a.md', content: 'x' }), call('s', 'shell', { command: 'ls' }));
    expect(m.call('w')!.stage.kind).toBe('person');
    expect(m.call('s')!.stage).toEqual({ kind: 'guardrail' });
    expect(m.state.phase).toBe('waiting_approval');
    expect(m.next()).toMatchObject({ kind: 'check_guardrails', on: 'tool', calls: [{ id: 's' }] });
    m.send({ type: 'guardrails_checked', on: 'tool', results: [{ name: 'no-rm', pass: true, callId: 's' }] });
    expect(m.call('s')!.stage.kind).toBe('person');
    expect(m.next()).toMatchObject({ kind: 'wait', for: 'approval' });
  });

  it('asks the question at the front of the turn while a later call goes to the handler and parks: the phase waits for input, the step for the approval', () => {
    const base = runState();
    const m = new Machine(runState({ agent: { ...base.agent, approvalHandler: true } })).reply(call('q', 'need_more_information', { question: 'Which file?' }), call('w', 'write_file', { path: 'y', content: '1' }));
    expect(m.state.pendingQuestion?.callId).toBe('q');
    expect(m.next()).toMatchObject({ kind: 'judge', calls: [{ id: 'w' }] });
    m.send({ type: 'calls_judged', verdicts: [{ callId: 'w', verdict: 'ask', reason: 'a person should see it' }] });
    expect(m.state.phase).toBe('waiting_input');
    expect(m.next()).toMatchObject({ kind: 'wait', for: 'approval' });
    m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve' }, via: 'update', verified: false });
    expect(m.next()).toMatchObject({ kind: 'wait', for: 'reply' });
  });

  it('changes nothing when the run has already moved as far as it can: taking a wait step hands back the same state', () => {
    const m = new Machine().reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
    const before = m.state;
    expect(m.take()).toMatchObject({ kind: 'wait', for: 'approval' });
    expect(m.state).toBe(before);
  });
});

describe('peekStep', () => {
  it('names the step step_wanted would hand out, and marks nothing started', () => {
    const m = new Machine().reply(call('a', 'read_file', { path: 'a' }));
    const before = m.state;
    const peeked = m.next();
    expect(m.state).toBe(before);
    expect(m.call('a')!.stage).toMatchObject({ kind: 'run', started: false });
    expect(m.take()).toEqual(peeked);
    expect(m.call('a')!.stage).toMatchObject({ kind: 'run', started: true });
    expect(m.next()).toEqual({ kind: 'await_tools' });
  });
});
