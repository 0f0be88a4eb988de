// Issue 34 (patch rule-decision-lines): a call that may change something and that a rule, a remembered
// "always" or the mode lets run unasked gets a `policy_allow` decision (and with it an audit line),
// saying what decided; a read a rule lets through gets none, and an execution without the patch none.
import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../../../src/contract/messages';
import type { RunEvent } from '../../../src/core/machine/run-events';
import type { RunState } from '../../../src/core/machine/run-state';
import { transition } from '../../../src/core/machine/transition';
import { call, runState } from './state-factory';

function reply(state: RunState, allowedCallLines: boolean | undefined, ...blocks: ContentBlock[]) {
  const send = (s: RunState, event: RunEvent) => transition(s, event, { now: Date.parse('2026-01-01T00:00:00Z'), runId: 'r1', allowedCallLines });
  const started = send(state, { type: 'model_call_started' }).state;
  const usage = { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
  return send(started, { type: 'model_replied', message: { role: 'assistant', content: blocks }, usage, promptChars: 400, storedCount: started.messages.length + 1, storedTag: 't' });
}

const WRITE = { path: 'y', content: '1' };
const allowed = (toolApproval: RunState['input']['toolApproval']) => {
  const base = runState();
  return runState({ input: { ...base.input, toolApproval } });
};

describe('decision lines for calls let run unasked', () => {
  it('records policy_allow for a write a rule lets run, naming the rule, and emits it for the audit log', () => {
    const { state, events } = reply(allowed({ alwaysApproved: [{ tool: 'write_file', writes: true }] }), true, call('w', 'write_file', WRITE), call('r', 'read_file', { path: 'y' }));
    expect(state.decisions).toEqual([expect.objectContaining({ callId: 'w', decision: 'policy_allow', via: 'policy', reason: expect.stringMatching(/^decided by a rule: run rule .*write_file.* approves it$/) })]);
    const decided = events.filter((e) => e.name === 'approvalDecided');
    expect(decided.map((e) => (e.data as { callId: string }).callId)).toEqual(['w']);
    expect(decided[0]!.data).toMatchObject({ arguments: WRITE });
  });

  it('names a remembered "always" and the mode', () => {
    const base = runState();
    const remembered = runState({ preferences: [{ tool: 'write_file', preference: 'always', match: { kind: 'tool' }, writes: true }] } as Partial<RunState>);
    expect(reply(remembered, true, call('w', 'write_file', WRITE)).state.decisions[0]!.reason).toMatch(/^decided by a remembered choice: you chose "always"/);
    const moded = runState({ ...base, mode: 'acceptEdits' });
    expect(reply(moded, true, call('w', 'write_file', WRITE)).state.decisions[0]!.reason).toMatch(/^decided by the mode: acceptEdits mode/);
  });

  it('records nothing for an execution without the patch', () => {
    const { state, events } = reply(allowed({ alwaysApproved: [{ tool: 'write_file', writes: true }] }), false, call('w', 'write_file', WRITE));
    expect(state.decisions).toEqual([]);
    expect(events.filter((e) => e.name === 'approvalDecided')).toEqual([]);
    expect(reply(allowed({ alwaysApproved: [{ tool: 'write_file', writes: true }] }), undefined, call('w', 'write_file', WRITE)).state.decisions).toEqual([]);
  });
});
