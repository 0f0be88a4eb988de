import { describe, expect, it } from 'vitest';
import type { ToolRun } from '../../../src/core/machine/next-step';
import { call, Machine, runState, TOOLS } from './state-factory';

const tools = { ...TOOLS, grep: { scope: 'read' as const, idempotent: true, quick: true }, slow_grep: { scope: 'read' as const, idempotent: true, quick: true, timeoutSeconds: 60 } };

function machine() {
  const state = runState();
  return new Machine(runState({ agent: { ...state.agent, tools }, input: { ...state.input, toolApproval: { alwaysApproved: ['deploy'] } } }));
}

const lanes = (m: Machine) => {
  const step = m.next();
  return step.kind === 'run_tools' ? Object.fromEntries(step.calls.map((c: ToolRun) => [c.name, c.lane])) : step.kind;
};

// The executors never read a patch flag or a tool's traits: the step says how each call runs.
describe('the lane a call runs in travels in the run_tools step', () => {
  it('runs quick idempotent tools locally, other idempotent ones with retries', () => {
    const m = machine().reply(call('a', 'grep', {}), call('b', 'slow_grep', {}), call('c', 'read_file', { path: 'x' }));
    expect(lanes(m)).toEqual({ grep: 'local', slow_grep: 'retryable', read_file: 'retryable' });
  });

  it('keeps quick tools on ordinary activities for an execution from before local-quick-tools', () => {
    const m = machine().reply(call('a', 'grep', {}));
    m.features = { ...m.features, localQuickTools: false };
    expect(lanes(m)).toEqual({ grep: 'retryable' });
  });

  it('runs a tool that is not safe to repeat at most once', () => {
    const m = machine().reply(call('a', 'deploy', {}));
    expect(m.state.turn?.calls[0]?.stage.kind).toBe('run');
    expect(lanes(m)).toEqual({ deploy: 'once' });
  });

  it('says whether a shouldContinue: false result may end the run', () => {
    const m = machine().reply(call('a', 'grep', {}));
    expect(m.next()).toMatchObject({ kind: 'run_tools', endsRun: true });
    m.features = { ...m.features, toolResultEndsRun: false };
    expect(m.next()).toMatchObject({ kind: 'run_tools', endsRun: false });
  });
});
