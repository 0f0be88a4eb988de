import { describe, expect, it } from 'vitest';
import { call, Machine, runState } from './state-factory';

const stop = (output: string) => ({ success: true, shouldContinue: false, output });
const ok = (output = 'done') => ({ success: true, shouldContinue: true, output });

describe('a tool result with shouldContinue: false', () => {
  it('completes the run with its output once the other calls of the turn have their results', () => {
    const m = new Machine().reply(call('a', 'read_file', { path: 'x' }), call('b', 'list_files', {}));
    m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_started', callId: 'b' });
    m.send({ type: 'tool_finished', callId: 'a', result: stop('all wrapped up'), durationMs: 1 });
    expect(m.state.completion).toEqual({ summary: 'all wrapped up', status: 'success' });
    expect(m.state.outcome).toBeUndefined();
    expect(m.next()).toEqual({ kind: 'await_tools' });
    m.send({ type: 'tool_finished', callId: 'b', result: ok(), durationMs: 1 });
    expect(m.state.outcome).toEqual({ kind: 'completed' });
    expect(m.next()).toEqual({ kind: 'finish' });
    expect(m.events.at(-1)).toMatchObject({ name: 'agentEnded', data: { status: 'completed', completion: { summary: 'all wrapped up' } } });
  });

  it('is ignored for an execution from before the change (legacy), so its history replays', () => {
    const m = new Machine().reply(call('a', 'read_file', { path: 'x' }));
    m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_finished', callId: 'a', result: stop('wrapped'), durationMs: 1, legacy: true });
    expect(m.state.completion).toBeUndefined();
    expect(m.next()).toEqual({ kind: 'call_model', waitOutOutage: true });
  });

  it('does not end the run when the flag is missing (a plain-JS tool)', () => {
    const m = new Machine().reply(call('a', 'read_file', { path: 'x' }));
    const result = { success: true, output: 'x' } as unknown as ReturnType<typeof ok>;
    m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_finished', callId: 'a', result, durationMs: 1 });
    expect(m.next()).toEqual({ kind: 'call_model', waitOutOutage: true });
  });

  it('gives way to a complete_task later in the same turn', () => {
    const m = new Machine().reply(call('a', 'read_file', { path: 'x' }), call('c', 'complete_task', { summary: 'the model', status: 'partial' }));
    m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_finished', callId: 'a', result: stop('the tool'), durationMs: 1 });
    expect(m.state.completion).toMatchObject({ summary: 'the model', status: 'partial' });
    expect(m.state.outcome).toEqual({ kind: 'completed' });
  });

  it('reports a failed result that stops the loop as blocked, and names the tool when it said nothing', () => {
    const m = new Machine().reply(call('a', 'read_file', { path: 'x' }));
    m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_finished', callId: 'a', result: { success: false, shouldContinue: false, output: ' ' }, durationMs: 1 });
    expect(m.state.completion).toEqual({ summary: 'read_file ended the run', status: 'blocked' });
  });

  it('in a thread, ends the turn like complete_task: the completion is reported and the run waits for the next message', () => {
    const m = new Machine(runState({ input: { ...runState().input, followUps: true, idleTimeoutSeconds: 600 } })).reply(call('a', 'read_file', { path: 'x' }));
    m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_finished', callId: 'a', result: stop('turn done'), durationMs: 1 });
    expect(m.state.outcome).toBeUndefined();
    expect(m.state.thread.completions).toEqual([{ summary: 'turn done', status: 'success' }]);
    expect(m.state.phase).toBe('idle');
  });
});
