import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../../../src/contract/messages';
import { PAUSE_TURN_NUDGE } from '../../../src/core/machine/on-model';
import { Machine } from './state-factory';

const search: ContentBlock[] = [
  { type: 'thinking', thinking: 'Search first.', signature: 'sig' },
  { type: 'server_tool_use', id: 'srv1', name: 'web_search', input: { query: 'q' }, caller: { type: 'direct' } },
  { type: 'web_search_tool_result', tool_use_id: 'srv1', content: [{ type: 'web_search_result', url: 'https://example.com' }] },
];
const failedSearch: ContentBlock[] = [
  { type: 'server_tool_use', id: 'srv2', name: 'web_search', input: { query: 'q' } },
  { type: 'web_search_tool_result', tool_use_id: 'srv2', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } },
];

describe('server tools in the run state machine', () => {
  it('are no calls of the turn: nothing to run or decide, a record "ran by the API", an event with ranBy api', () => {
    const m = new Machine().reply(...search, { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'x' } });
    expect(m.state.turn?.calls.map((c) => c.id)).toEqual(['a']);
    expect(m.state.recentToolCalls).toContainEqual({ iteration: 1, callId: 'srv1', tool: 'web_search', summary: 'web_search {"query":"q"} (ran by the API)', outcome: 'success', ranBy: 'api' });
    expect(m.events.find((e) => e.name === 'toolEnded')?.data).toMatchObject({ tool: 'web_search', callId: 'srv1', success: true, ranBy: 'api' });
    expect(m.state.decisions).toEqual([]);
    // The reply is kept whole, every block in the API's order.
    expect(m.state.messages[1]).toEqual({ role: 'assistant', content: [...search, { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'x' } }] });
  });

  it('record a server tool whose result is an error as failed', () => {
    const m = new Machine().reply(...failedSearch, { type: 'text', text: 'The search failed.' });
    expect(m.state.recentToolCalls.at(-1)).toMatchObject({ callId: 'srv2', outcome: 'error', ranBy: 'api' });
  });

  const usage = { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };

  it('leave a paused server tool turn last, with no nudge, for the next call to continue as it is', () => {
    const m = new Machine();
    m.send({ type: 'model_call_started' });
    m.send({ type: 'model_replied', message: { role: 'assistant', content: search }, stopReason: 'pause_turn', usage, promptChars: 10, storedCount: 2, storedTag: 't' });
    expect(m.state.messages.at(-1)).toEqual({ role: 'assistant', content: search });
    expect(m.state.turn).toBeUndefined();
  });

  it('take a continued turn in place of the paused one, and record only its new server tool calls', () => {
    const m = new Machine();
    m.send({ type: 'model_call_started' });
    m.send({ type: 'model_replied', message: { role: 'assistant', content: search }, stopReason: 'pause_turn', usage, promptChars: 10, storedCount: 2, storedTag: 't' });
    const whole = [...search, ...failedSearch, { type: 'tool_use' as const, id: 'a', name: 'read_file', input: { path: 'x' } }];
    m.send({ type: 'model_call_started' });
    m.send({ type: 'model_replied', message: { role: 'assistant', content: whole }, continued: true, stopReason: 'tool_use', usage, promptChars: 10, storedCount: 2, storedTag: 't2' });
    expect(m.state.messages).toHaveLength(2);
    expect(m.state.messages[1]).toEqual({ role: 'assistant', content: whole });
    expect(m.state.recentToolCalls.filter((c) => c.ranBy === 'api').map((c) => [c.callId, c.outcome])).toEqual([['srv1', 'success'], ['srv2', 'error']]);
    expect(m.state.turn?.calls.map((c) => c.id)).toEqual(['a']);
  });

  it('nudge a paused turn with "Continue." in executions from before paused turns were continued as they are', () => {
    const m = new Machine();
    m.send({ type: 'model_call_started' });
    m.send({ type: 'model_replied', message: { role: 'assistant', content: search }, stopReason: 'pause_turn', pauseNudge: true, usage, promptChars: 10, storedCount: 2, storedTag: 't' });
    expect(m.state.messages.at(-1)).toEqual({ role: 'user', content: PAUSE_TURN_NUDGE });
  });
});
