import { describe, expect, it } from 'vitest';
import { CONTINUE_NUDGE } from '../../../src/core/machine/on-model';
import { OUTCOME_UNKNOWN_PREFIX } from '../../../src/core/machine/on-tool';
import { pendingApprovalsOf, toStatus } from '../../../src/core/machine/run-status';
import { call, Machine, runState, T0 } from './state-factory';

const ok = (output = 'done') => ({ success: true, shouldContinue: true, output });
const complete = (id = 'c') => call(id, 'complete_task', { summary: 'all done', status: 'success' });

describe('the run state machine', () => {
  describe('a turn', () => {
    it('runs an allowed call, then gives all results back in one message and asks the model again', () => {
      const m = new Machine().reply(call('a', 'read_file', { path: 'x' }));
      expect(m.state.iteration).toBe(1);
      expect(m.next()).toMatchObject({ kind: 'run_tools', calls: [{ id: 'a' }] });
      m.send({ type: 'tool_started', callId: 'a' });
      expect(m.next()).toEqual({ kind: 'await_tools' });
      m.send({ type: 'tool_finished', callId: 'a', result: ok('contents'), durationMs: 5 });
      expect(m.state.turn).toBeUndefined();
      expect(m.state.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'contents' }] });
      expect(m.next()).toEqual({ kind: 'call_model', waitOutOutage: true });
      expect(m.events.map((e) => e.name)).toEqual(['iterationStarted', 'toolStarted', 'toolEnded', 'iterationCompleted']);
    });

    it('answers a reply without a tool call with a nudge that counts toward the cap', () => {
      const m = new Machine().reply({ type: 'text', text: 'thinking aloud' });
      expect(m.state.messages.at(-1)).toEqual({ role: 'user', content: CONTINUE_NUDGE });
      expect(m.state.iteration).toBe(1);
    });

    it('gives an unknown tool an error result without asking anyone', () => {
      const m = new Machine().reply(call('a', 'teleport', {}));
      expect(m.state.messages.at(-1)?.content).toEqual([expect.objectContaining({ tool_use_id: 'a', is_error: true, content: expect.stringContaining('Unknown tool "teleport"') })]);
    });

    it('handles complete_task only after the calls before it are decided and run, in the model\'s order', () => {
      const m = new Machine().reply(call('w', 'write_file', { path: 'a.md', content: 'x' }), complete());
      expect(m.state.completion).toBeUndefined();
      expect(m.state.phase).toBe('waiting_approval');
      m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve', approver: 'ana' }, via: 'update', verified: false });
      expect(m.state.completion).toBeUndefined();
      expect(m.next()).toMatchObject({ kind: 'run_tools', calls: [{ id: 'w' }] });
      m.send({ type: 'tool_started', callId: 'w' }).send({ type: 'tool_finished', callId: 'w', result: ok(), durationMs: 1 });
      expect(m.state.completion).toMatchObject({ status: 'success' });
      expect(m.state.outcome).toEqual({ kind: 'completed' });
      expect(m.state.phase).toBe('completed');
      expect(m.next()).toEqual({ kind: 'finish' });
    });

    it('ends the run at the iteration cap', () => {
      const m = new Machine(runState({ input: { ...runState().input, maxIterations: 1 } })).reply(call('a', 'read_file', { path: 'x' }));
      m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_finished', callId: 'a', result: ok(), durationMs: 1 });
      expect(m.state.outcome).toEqual({ kind: 'max_iterations' });
      expect(m.state.phase).toBe('max_iterations');
    });
  });

  describe('approvals', () => {
    it('keeps pending approvals in one place: the turn, from which status and details are derived', () => {
      const m = new Machine().reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
      const pending = pendingApprovalsOf(m.state);
      expect(pending).toEqual([expect.objectContaining({ callId: 'w', tool: 'write_file', reason: 'write tools: approve', workflowId: 'run-1', requestedAt: new Date(T0).toISOString() })]);
      expect(toStatus(m.state).pendingApprovals).toEqual(pending);
      expect(m.next()).toEqual({ kind: 'wait', for: 'approval', until: T0 + 3_600_000 });
    });

    it('turns a rejection into an error result the model can handle', () => {
      const m = new Machine().reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
      m.send({ type: 'decision', decision: { callId: 'w', decision: 'reject', reason: 'not now', approver: 'ana' }, via: 'signal', verified: false });
      expect(m.state.messages.at(-1)?.content).toEqual([expect.objectContaining({ is_error: true, content: expect.stringContaining('was not run: rejected: not now') })]);
    });

    it('records a decision for a call that is not waiting as ignored, with the reason', () => {
      const m = new Machine().reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
      m.send({ type: 'decision', decision: { callId: 'nope', decision: 'approve' }, via: 'signal', verified: false });
      expect(m.state.ignored).toEqual([expect.objectContaining({ kind: 'approval', reason: 'no pending approval with callId nope; decision ignored' })]);
      expect(pendingApprovalsOf(m.state)).toHaveLength(1);
    });

    it('times out an approval at its deadline and treats it as refused', () => {
      const m = new Machine().reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
      m.now = T0 + 3_600_000;
      m.send({ type: 'time_passed' });
      expect(m.state.decisions.at(-1)).toMatchObject({ callId: 'w', decision: 'timed_out', via: 'timeout' });
      expect(m.state.messages.at(-1)?.content).toEqual([expect.objectContaining({ content: expect.stringContaining('timed out: no decision within 3600s') })]);
    });

    it('remembers "always" for what the person saw (the path), and settles the other calls it covers', () => {
      const m = new Machine().reply(
        call('a', 'write_file', { path: 'notes.md', content: '1' }),
        call('b', 'write_file', { path: 'notes.md', content: '2' }),
        call('c', 'write_file', { path: 'other.md', content: '3' }),
      );
      m.send({ type: 'decision', decision: { callId: 'a', decision: 'approve_always', approver: 'ana' }, via: 'update', verified: false });
      expect(m.state.unsavedPreferences).toEqual([expect.objectContaining({ tool: 'write_file', preference: 'always', by: 'ana', match: { kind: 'argument', name: 'path', value: 'notes.md', prefix: false } })]);
      expect(m.call('b')!.stage.kind).toBe('run');
      expect(m.call('c')!.stage.kind).toBe('person');
    });

    it('settles every waiting call of the tool when replaying a history from before scoped choices', () => {
      const m = new Machine().reply(call('a', 'write_file', { path: 'notes.md', content: '1' }), call('c', 'write_file', { path: 'other.md', content: '3' }));
      m.send({ type: 'decision', decision: { callId: 'a', decision: 'reject_always', approver: 'ana' }, via: 'signal', verified: false, toolWide: true });
      expect(m.state.unsavedPreferences).toEqual([expect.objectContaining({ match: { kind: 'tool' } })]);
      expect(m.call('c')!.stage.kind).toBe('refused');
    });

    it('saves remembered choices before any tool of the turn runs', () => {
      const m = new Machine().reply(call('a', 'write_file', { path: 'n.md', content: '1' }));
      m.send({ type: 'decision', decision: { callId: 'a', decision: 'approve_always', approver: 'ana' }, via: 'update', verified: false });
      expect(m.next()).toMatchObject({ kind: 'save_preference', rule: { tool: 'write_file' } });
      m.send({ type: 'preferences_saved', count: 1 });
      expect(m.next()).toMatchObject({ kind: 'run_tools' });
    });

    it('refuses a decision from someone who is not an approver, and the call stays parked', () => {
      const m = new Machine(runState({ input: { ...runState().input, approvers: ['ana'] } })).reply(call('w', 'write_file', { path: 'a', content: 'x' }));
      m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve', approver: 'mallory' }, via: 'signal', verified: false });
      expect(m.state.ignored.at(-1)?.reason).toMatch(/"mallory" may not decide calls of this run \(approvers: ana\); the call stays parked/);
      expect(m.state.phase).toBe('waiting_approval');
    });

    it('lets a run narrow the agent\'s approvers but not widen them', () => {
      const base = runState();
      const state = runState({ agent: { ...base.agent, approvers: ['ana', 'bo'] }, input: { ...base.input, approvers: ['bo', 'eve'] } });
      expect(toStatus(state).approvers).toEqual(['bo']);
    });
  });

  describe('questions', () => {
    it('parks on need_more_information until the reply, which becomes the tool result', () => {
      const m = new Machine().reply(call('q', 'need_more_information', { question: 'Which file?' }));
      expect(m.state.phase).toBe('waiting_input');
      expect(m.next()).toEqual({ kind: 'wait', for: 'reply', until: T0 + 3_600_000 });
      m.send({ type: 'reply', text: 'notes.md', via: 'signal' });
      expect(m.state.messages.at(-1)?.content).toEqual([{ type: 'tool_result', tool_use_id: 'q', content: 'The user replied: notes.md' }]);
    });

    it('ignores a reply when no question is waiting', () => {
      const m = new Machine().send({ type: 'reply', text: 'hello', via: 'signal' });
      expect(m.state.ignored).toEqual([expect.objectContaining({ kind: 'userReply', reason: 'no question is waiting for a reply' })]);
    });

    it('gives an unanswered question an error result at its deadline', () => {
      const m = new Machine().reply(call('q', 'need_more_information', { question: 'Which file?' }));
      m.now += 3_600_000;
      m.send({ type: 'time_passed' });
      expect(m.state.messages.at(-1)?.content).toEqual([expect.objectContaining({ is_error: true, content: expect.stringContaining('did not answer within 3600s') })]);
    });
  });

  describe('model outages', () => {
    it('waits out an unavailable API: phase waiting_for_model, the error and the next attempt in status, the same iteration', () => {
      const m = new Machine();
      m.send({ type: 'model_call_started' });
      m.send({ type: 'model_failed', retryable: true, errorType: 'ModelUnavailable', message: 'Model API answered 503', retryAfterMs: 7_000 });
      expect(m.state.phase).toBe('waiting_for_model');
      expect(toStatus(m.state).modelWait).toEqual({ attempt: 1, lastError: 'Model API answered 503', nextAttemptAt: new Date(T0 + 7_000).toISOString() });
      expect(m.next()).toEqual({ kind: 'wait', for: 'model_retry', until: T0 + 7_000 });
      m.now = T0 + 7_000;
      expect(m.next()).toEqual({ kind: 'call_model', waitOutOutage: true });
      m.send({ type: 'model_call_started' });
      expect(m.state.iteration).toBe(1);
      expect(m.state.modelCall?.attempt).toBe(2);
      expect(m.state.phase).toBe('running');
    });

    it('doubles the wait without retry-after, up to the run\'s maximum, with no cap on attempts', () => {
      const m = new Machine(runState({ input: { ...runState().input, modelRetryMaxSeconds: 10 } }));
      const waits: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        m.send({ type: 'model_call_started' });
        m.send({ type: 'model_failed', retryable: true, errorType: 'ModelUnavailable', message: 'down' });
        waits.push(Date.parse(m.state.modelCall!.nextAttemptAt!) - m.now);
      }
      expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000, 10_000]);
      expect(m.state.outcome).toBeUndefined();
    });

    it('fails the run on a refused request', () => {
      const m = new Machine().send({ type: 'model_call_started' });
      m.send({ type: 'model_failed', retryable: false, errorType: 'ModelRequestRejected', message: 'Model API rejected the request with 401' });
      expect(m.state.outcome).toEqual({ kind: 'failed', type: 'ModelRequestRejected', message: 'Model API rejected the request with 401' });
      expect(m.state.phase).toBe('failed');
      expect(m.next()).toEqual({ kind: 'finish' });
    });

    it('continues as new while it waits, once the history is full', () => {
      const m = new Machine().send({ type: 'model_call_started' });
      m.send({ type: 'model_failed', retryable: true, errorType: 'ModelUnavailable', message: 'down' });
      expect(m.next(true)).toEqual({ kind: 'continue_as_new' });
    });
  });

  describe('at most once', () => {
    it('tells the model the outcome is unknown when a call that must not run twice lost its worker', () => {
      const m = new Machine(runState({ input: { ...runState().input, toolApproval: { alwaysApproved: ['deploy'] } } })).reply(call('d', 'deploy', {}));
      m.send({ type: 'tool_started', callId: 'd' });
      m.send({ type: 'tool_outcome_unknown', callId: 'd', cause: 'activity Heartbeat timeout', durationMs: 10_000 });
      const result = (m.state.messages.at(-1)!.content as { content: string; is_error?: boolean }[])[0]!;
      expect(result.is_error).toBe(true);
      expect(result.content.startsWith(`${OUTCOME_UNKNOWN_PREFIX}: the worker running this call stopped reporting (it stopped, hung, or lost its connection to the server); it may or may not have taken effect; check before retrying`)).toBe(true);
      expect(m.state.recentToolCalls.at(-1)).toMatchObject({ callId: 'd', outcome: 'unknown' });
      expect(m.events.find((e) => e.name === 'toolEnded')?.data).toMatchObject({ outcome: 'unknown' });
    });
  });

  describe('concurrency', () => {
    it('starts the read-only calls at the head of a turn together, and a write alone after them', () => {
      const m = new Machine().reply(call('a', 'read_file', { path: 'a' }), call('b', 'list_files', { path: '.' }), call('w', 'deploy', {}), call('c', 'read_file', { path: 'c' }));
      m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve' }, via: 'update', verified: false });
      expect(m.next()).toMatchObject({ kind: 'run_tools', calls: [{ id: 'a' }, { id: 'b' }] });
      m.send({ type: 'tool_started', callId: 'a' }).send({ type: 'tool_started', callId: 'b' });
      m.send({ type: 'tool_finished', callId: 'b', result: ok(), durationMs: 1 });
      expect(m.next()).toEqual({ kind: 'await_tools' });
      m.send({ type: 'tool_finished', callId: 'a', result: ok(), durationMs: 1 });
      expect(m.next()).toMatchObject({ kind: 'run_tools', calls: [{ id: 'w' }] });
    });

    it('runs them one at a time when replaying a history from before concurrent reads', () => {
      const m = new Machine().reply(call('a', 'read_file', { path: 'a' }), call('b', 'list_files', { path: '.' }));
      m.features = { ...m.features, concurrentReadTools: false };
      expect(m.next()).toMatchObject({ kind: 'run_tools', calls: [{ id: 'a' }] });
    });
  });

  it('never changes the state it was given', () => {
    const m = new Machine().reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
    const before = m.state;
    const snapshot = JSON.stringify(before);
    m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve' }, via: 'update', verified: false });
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(m.state).not.toBe(before);
  });

  it('keeps the last 30 lifecycle events in the status query', () => {
    const m = new Machine(runState({ input: { ...runState().input, maxIterations: 100 } }));
    for (let i = 0; i < 12; i += 1) {
      m.reply(call(`l${i}`, 'list_files', { path: '.' }));
      m.send({ type: 'tool_started', callId: `l${i}` }).send({ type: 'tool_finished', callId: `l${i}`, result: ok(), durationMs: 1 });
    }
    expect(m.events.length).toBeGreaterThan(30);
    expect(toStatus(m.state).events).toEqual(m.events.slice(-30));
  });

  it('holds the calls the policy allows while another call of the turn is parked, then runs all in the model\'s order', () => {
    const m = new Machine().reply(call('a', 'list_files', { path: '.' }), call('w', 'write_file', { path: 'a.md', content: 'x' }), call('b', 'read_file', { path: 'b' }));
    expect(m.call('a')!.stage.kind).toBe('run');
    expect(m.call('w')!.stage.kind).toBe('person');
    const parked = m.next();
    expect(parked.kind).toBe('wait');
    expect(m.call('a')!.stage).toMatchObject({ kind: 'run', started: false });
    m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve' }, via: 'update', verified: false });
    const order: string[] = [];
    for (let step = m.next(); step.kind === 'run_tools'; step = m.next()) {
      for (const c of step.calls) {
        order.push(c.id);
        m.send({ type: 'tool_started', callId: c.id }).send({ type: 'tool_finished', callId: c.id, result: ok(c.id), durationMs: 1 });
      }
    }
    expect(order).toEqual(['a', 'w', 'b']);
    const results = m.state.messages.at(-1)!.content as { type: string; tool_use_id?: string }[];
    expect(results.map((r) => r.tool_use_id)).toEqual(['a', 'w', 'b']);
  });

  it('closes an idle thread once idleTimeoutSeconds have passed without a message', () => {
    const idleSince = new Date(T0).toISOString();
    const m = new Machine(runState({ input: { ...runState().input, followUps: true, idleTimeoutSeconds: 600 }, thread: { completions: [], idleSince, iterationBase: 0, inbox: [], closeRequested: false } }));
    expect(m.next()).toEqual({ kind: 'wait', for: 'message', until: T0 + 600_000 });
    m.now = T0 + 599_000;
    m.send({ type: 'time_passed' });
    expect(m.state.outcome).toBeUndefined();
    m.now = T0 + 600_000;
    m.send({ type: 'time_passed' });
    expect(m.state.outcome).toEqual({ kind: 'completed' });
    expect(m.events.at(-1)).toMatchObject({ name: 'agentEnded', data: { status: 'completed' } });
  });
});
