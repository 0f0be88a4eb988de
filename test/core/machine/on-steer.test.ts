import { describe, expect, it } from 'vitest';
import { call, Machine, runState } from './state-factory';
import { runWarnings, steeringNote } from '../../../src/core/machine/on-steer';

const ok = (output = 'done') => ({ success: true, shouldContinue: true, output });

describe('steering a run that is not a thread', () => {
  it('queues a message sent mid-turn and hands it to the next model request, after the turn\'s tool results', () => {
    const m = new Machine().reply(call('a', 'read_file', { path: 'x' }));
    m.send({ type: 'tool_started', callId: 'a' });
    m.send({ type: 'user_message', text: 'use tabs, not spaces', sender: 'ana', steer: true });
    expect(m.state.ignored).toEqual([]);
    expect(m.state.thread.inbox).toEqual(['use tabs, not spaces']);
    m.send({ type: 'tool_finished', callId: 'a', result: ok('file x'), durationMs: 1 });
    // Still queued: the results are in, the next request has not started.
    expect(m.state.messages.at(-1)?.content).toHaveLength(1);
    expect(m.take()).toMatchObject({ kind: 'call_model' });
    const last = m.state.messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(last.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: expect.any(String) },
      { type: 'text', text: steeringNote('use tabs, not spaces', 'ana') },
    ]);
    expect(m.state.thread.inbox).toEqual([]);
    expect(m.events.some((e) => e.name === 'messageReceived')).toBe(true);
  });

  it('decides nothing while a call waits for approval', () => {
    const m = new Machine().reply(call('w', 'write_file', { path: 'x', content: 'y' }));
    expect(m.state.phase).toBe('waiting_approval');
    m.send({ type: 'user_message', text: 'go ahead', steer: true });
    expect(m.state.phase).toBe('waiting_approval');
    expect(m.state.decisions).toEqual([]);
    expect(m.call('w')?.stage.kind).toBe('person');
  });

  it('keeps a run that completes with a message queued going, so the model reads it first', () => {
    const m = new Machine().reply(call('a', 'read_file', { path: 'x' }));
    m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_finished', callId: 'a', result: ok(), durationMs: 1 });
    m.take();
    m.send({ type: 'user_message', text: 'also add a test', steer: true });
    m.send({ type: 'model_replied', message: { role: 'assistant', content: [call('c', 'complete_task', { summary: 's', status: 'success' })] }, usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }, promptChars: 1, storedCount: m.state.messages.length + 1, storedTag: 't' });
    expect(m.state.outcome).toBeUndefined();
    expect(m.state.completion).toBeUndefined();
    expect(m.take()).toMatchObject({ kind: 'call_model' });
    expect(JSON.stringify(m.state.messages.at(-1))).toContain('also add a test');
  });

  it('refuses a message to a run that has ended, and without `steer` keeps refusing plain runs (older executions)', () => {
    const m = new Machine();
    m.send({ type: 'user_message', text: 'hello' });
    expect(m.state.ignored.at(-1)?.reason).toMatch(/does not take follow-up messages/);
    m.reply(call('c', 'complete_task', { summary: 's', status: 'success' }));
    expect(m.state.outcome).toEqual({ kind: 'completed' });
    m.send({ type: 'user_message', text: 'too late', steer: true });
    expect(m.state.ignored.at(-1)?.reason).toBe('the run has ended');
  });

  it('leaves a thread\'s rule alone: a message waits for the turn\'s completion', () => {
    const m = new Machine(runState({ input: { ...runState().input, followUps: true, idleTimeoutSeconds: 600 } })).reply(call('a', 'read_file', { path: 'x' }));
    m.send({ type: 'user_message', text: 'next', steer: true });
    m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_finished', callId: 'a', result: ok(), durationMs: 1 });
    m.take();
    expect(JSON.stringify(m.state.messages)).not.toContain('next');
    expect(m.state.thread.inbox).toEqual(['next']);
  });

  it('warns of messages a run ended before delivering, only once it has ended, and never for a thread', () => {
    const queued = { completions: [], iterationBase: 0, inbox: ['use tabs'], closeRequested: false };
    const ended = runState({ thread: queued, outcome: { kind: 'max_iterations' }, warnings: ['an earlier warning'] });
    expect(runWarnings(ended)).toEqual([
      'an earlier warning',
      expect.stringMatching(/^1 message\(s\) sent to the run while it worked were not delivered: it reached its iteration cap \(10\) before its next model request\. They are kept; `agentctl resume run-1` delivers them/),
    ]);
    expect(runWarnings(runState({ thread: queued }))).toEqual([]);
    const thread = runState({ thread: queued, outcome: { kind: 'max_iterations' } });
    thread.input.followUps = true;
    expect(runWarnings(thread)).toEqual([]);
  });
});
