// What taking a step starts is decided by the machine, not by the executors (see take-step.ts).
import { describe, expect, it } from 'vitest';
import { childWorkflowId } from '../../../src/workflows/run-machine/on-team';
import { startedEvents } from '../../../src/workflows/run-machine/started-events';
import { call, Machine, runState } from './state-factory';

describe('the events a step starts with', () => {
  it('starts a model call, and counts the iteration when it is applied', () => {
    const m = new Machine();
    const step = m.next();
    expect(step.kind).toBe('call_model');
    const events = startedEvents(m.state, step);
    expect(events).toEqual([{ type: 'model_call_started' }]);
    for (const event of events) m.send(event);
    expect(m.state.iteration).toBe(1);
  });

  it('marks every call of a run_tools step started, sub-agent runs with their child workflow id, so the next step does not start them again', () => {
    const base = runState();
    const m = new Machine(runState({ agent: { ...base.agent, subAgents: ['reader'] } })).reply(
      call('a', 'read_file', { path: 'x' }),
      call('d', 'delegate_task', { agent: 'reader', task: 'look' }),
    );
    const step = m.next();
    expect(step).toMatchObject({ kind: 'run_tools', calls: [{ id: 'a', lane: 'retryable' }, { id: 'd', lane: 'child' }] });
    const events = startedEvents(m.state, step);
    expect(events).toEqual([
      { type: 'tool_started', callId: 'a' },
      { type: 'child_started', callId: 'd', workflowId: childWorkflowId('run-1', 'd') },
    ]);
    for (const event of events) m.send(event);
    expect(m.next()).toEqual({ kind: 'await_tools' });
  });

  it('starts nothing for steps that only ask or wait', () => {
    const m = new Machine().reply(call('w', 'write_file', { path: 'a', content: 'b' }));
    const step = m.next();
    expect(step.kind).toBe('wait');
    expect(startedEvents(m.state, step)).toEqual([]);
  });
});
