// The status query's view of a run (issue 31): a thread's latest completions with a count of all, a
// status while the run starts, and a sub-agent run that could not tell its parent says so.
import { describe, expect, it } from 'vitest';
import { startingStatus, toStatus } from '../../../src/core/machine/run-status';
import { StateLimits } from '../../../src/core/machine/run-state';
import { Machine, runState } from './state-factory';

describe('toStatus', () => {
  it('returns the latest completions of a long thread, and how many there are', () => {
    const completions = Array.from({ length: 30 }, (_, i) => ({ summary: `answer ${i}`, status: 'success' as const }));
    const status = toStatus(runState({ thread: { completions, iterationBase: 0, inbox: [], closeRequested: false } }));
    expect(status.completionCount).toBe(30);
    expect(status.completions).toHaveLength(StateLimits.statusCompletions);
    expect(status.completions.at(-1)?.summary).toBe('answer 29');
  });
});

describe('startingStatus', () => {
  it('says what the input says, in the phase `starting`', () => {
    const status = startingStatus({ workflowId: 'run-9', agent: 'general', task: 'look', followUps: true, parent: { workflowId: 'p', rootWorkflowId: 'root', depth: 1 } });
    expect(status).toMatchObject({ workflowId: 'run-9', phase: 'starting', agent: 'general', startedAs: 'general', task: 'look', user: 'default', followUps: true, pendingApprovals: [], completionCount: 0 });
    expect(status.lineage).toEqual({ depth: 1, parentWorkflowId: 'p', rootWorkflowId: 'root' });
  });
});

describe('a parent that cannot be told', () => {
  it('is one warning and one errorOccurred event, not one per attempt', () => {
    const m = new Machine();
    m.send({ type: 'parent_unreachable', parent: 'p-1', error: 'not found' });
    m.send({ type: 'parent_unreachable', parent: 'p-1', error: 'not found' });
    expect(m.state.warnings).toEqual([expect.stringMatching(/^could not tell its parent run p-1 what it waits for \(not found\)/)]);
    expect(m.events.filter((e) => e.name === 'errorOccurred')).toHaveLength(1);
  });
});
