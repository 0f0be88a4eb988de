// Issue 36 (patch nexus-argument-checks): a call the worker found not to fit its tool's input schema
// (a Nexus tool's, in the model reply's `argumentProblems`) is answered with that error at once: it is
// never judged, never parks and never runs; the other calls of the turn go on as before.
import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../../../src/contract/messages';
import type { RunEvent } from '../../../src/core/machine/run-events';
import type { RunState } from '../../../src/core/machine/run-state';
import { transition } from '../../../src/core/machine/transition';
import { call, runState } from './state-factory';

function reply(state: RunState, argumentProblems: Record<string, string> | undefined, ...blocks: ContentBlock[]) {
  const send = (s: RunState, event: RunEvent) => transition(s, event, { now: Date.parse('2026-01-01T00:00:00Z'), runId: 'r1' });
  const started = send(state, { type: 'model_call_started' }).state;
  const usage = { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
  return send(started, { type: 'model_replied', message: { role: 'assistant', content: blocks }, usage, promptChars: 400, storedCount: started.messages.length + 1, storedTag: 't', ...(argumentProblems ? { argumentProblems } : {}) });
}

const WRITE = { path: 'y', content: '1' };

describe('calls whose arguments do not fit', () => {
  it('get the worker\'s error result at once: no approval is asked for them, while a fitting call of the same turn parks', () => {
    const { state, events } = reply(runState(), { bad: 'Invalid arguments for write_file:\n- path: is required' }, call('bad', 'write_file', { content: '1' }), call('good', 'write_file', WRITE));
    const [bad, good] = state.turn!.calls;
    expect(bad).toMatchObject({ stage: { kind: 'refused', reason: 'invalid arguments' }, result: { tool_use_id: 'bad', is_error: true, content: 'Invalid arguments for write_file:\n- path: is required' } });
    expect(good?.stage.kind).toBe('person');
    expect(events.filter((e) => e.name === 'approvalRequested').map((e) => (e.data as { callId: string }).callId)).toEqual(['good']);
    expect(state.recentToolCalls.find((c) => c.callId === 'bad')?.outcome).toBe('error');
    expect(state.decisions).toEqual([]);
  });

  it('close the turn at once when every call misfits: the model hears the errors next, nothing runs', () => {
    const { state } = reply(runState(), { a: 'Invalid arguments for write_file: a', b: 'Invalid arguments for write_file: b' }, call('a', 'write_file', {}), call('b', 'write_file', {}));
    expect(state.turn).toBeUndefined();
    expect(state.messages.at(-1)).toEqual({ role: 'user', content: [expect.objectContaining({ tool_use_id: 'a', is_error: true }), expect.objectContaining({ tool_use_id: 'b', is_error: true })] });
  });

  it('a reply without argumentProblems (every reply before the patch) is judged as before', () => {
    const { state } = reply(runState(), undefined, call('w', 'write_file', { content: '1' }));
    expect(state.turn!.calls[0]!.stage.kind).toBe('person');
  });
});
