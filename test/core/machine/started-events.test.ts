// The machine hands out the next step and marks what it starts in the same transition (`step_wanted`);
// the executors only report outcomes (see take-step.ts).
import { describe, expect, it } from 'vitest';
import { childWorkflowId } from '../../../src/core/machine/on-team';
import { startedEvents } from '../../../src/core/machine/started-events';
import { StepEnvMissingError, transition } from '../../../src/core/machine/transition';
import { call, Machine, runState } from './state-factory';

describe('step_wanted: the next step, with what it starts', () => {
  it('hands out a model call and counts the iteration in the same transition', () => {
    const m = new Machine();
    expect(m.take()).toEqual({ kind: 'call_model', waitOutOutage: true });
    expect(m.state.iteration).toBe(1);
    expect(m.state.modelCall).toEqual({ attempt: 1 });
    expect(m.events.map((e) => e.name)).toEqual(['iterationStarted']);
  });

  it('marks every call of a run_tools step started, sub-agent runs with their child workflow id, so the next step does not start them again', () => {
    const base = runState();
    const m = new Machine(runState({ agent: { ...base.agent, subAgents: ['reader'] } })).reply(
      call('a', 'read_file', { path: 'x' }),
      call('d', 'delegate_task', { agent: 'reader', task: 'look' }),
    );
    const step = m.next();
    expect(startedEvents(m.state, step)).toEqual([
      { type: 'tool_started', callId: 'a' },
      { type: 'child_started', callId: 'd', workflowId: childWorkflowId('run-1', 'd') },
    ]);
    expect(m.take()).toMatchObject({ kind: 'run_tools', calls: [{ id: 'a', lane: 'retryable' }, { id: 'd', lane: 'child' }] });
    expect(m.call('a')?.stage).toMatchObject({ kind: 'run', started: true });
    expect(m.call('d')).toMatchObject({ stage: { kind: 'control', started: true }, child: { workflowId: childWorkflowId('run-1', 'd') } });
    expect(m.take()).toEqual({ kind: 'await_tools' });
  });

  it('changes nothing for a step that only waits', () => {
    const m = new Machine().reply(call('w', 'write_file', { path: 'a', content: 'b' }));
    const before = m.state;
    expect(m.take().kind).toBe('wait');
    expect(m.state).toBe(before);
  });

  it('gives no effects for any other event', () => {
    const m = new Machine();
    expect(transition(m.state, { type: 'time_passed' }, { now: m.now, runId: 'r1' }).effects).toEqual([]);
  });

  it('refuses to pick a step without the execution\'s features', () => {
    expect(() => transition(runState(), { type: 'step_wanted' }, { now: 0, runId: 'r1' })).toThrow(StepEnvMissingError);
  });
});
