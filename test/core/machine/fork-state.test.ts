import { describe, expect, it } from 'vitest';
import { forkState } from '../../../src/core/machine/fork-state';
import { call, Machine } from './state-factory';

describe('forkState', () => {
  it('clears what ended the run and keeps the conversation block for block, the new instruction after the tool results', () => {
    const m = new Machine().reply(call('a', 'read_file', { path: 'x' }));
    m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_finished', callId: 'a', result: { success: true, shouldContinue: true, output: 'x' }, durationMs: 1 });
    m.take();
    m.send({ type: 'model_replied', message: { role: 'assistant', content: [call('c', 'complete_task', { summary: 's', status: 'success' })] }, usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }, promptChars: 1, storedCount: 4, storedTag: 't' });
    expect(m.state.outcome).toEqual({ kind: 'completed' });
    const forked = forkState(m.state, { from: 'run-1', iteration: 2, task: 'do it differently' });
    expect(forked.outcome).toBeUndefined();
    expect(forked.completion).toBeUndefined();
    expect(forked.usage).toEqual(m.state.usage);
    expect(forked.messages.slice(0, -1)).toEqual(m.state.messages.slice(0, -1));
    expect(forked.messages.at(-1)?.content).toEqual([...(m.state.messages.at(-1)!.content as unknown[]), { type: 'text', text: expect.stringMatching(/fork of run-1 after iteration 2[\s\S]*do it differently$/) }]);
    // The original is only read.
    expect(m.state.outcome).toEqual({ kind: 'completed' });
    expect(JSON.stringify(m.state.messages)).not.toContain('do it differently');
  });
});
