import { describe, expect, it } from 'vitest';
import { call, Machine, runState } from './state-factory';

const resumed = (moreIterations?: number) => ({ type: 'resumed' as const, from: 'old-run', workflowId: 'new-run', conversationKey: 'new-run/r9', moreIterations });

describe('the machine reopens a resumed run (agentctl resume)', () => {
  it('stands alone under its new id and conversation, away from the parent of the run it continues', () => {
    const m = new Machine(runState({ workflowId: 'old-run', chain: { link: 3 }, lineage: { depth: 1, parentWorkflowId: 'parent', rootWorkflowId: 'root' }, outcome: { kind: 'failed', type: 'X', message: 'boom' }, phase: 'failed' }));
    m.send(resumed());
    expect(m.state.workflowId).toBe('new-run');
    expect(m.state.chain).toEqual({ link: 0, resumedFrom: 'old-run' });
    expect(m.state.conversation).toEqual({ key: 'new-run/r9', generation: 0, syncedCount: 0 });
    expect(m.state.lineage).toEqual({ depth: 0, rootWorkflowId: 'new-run' });
    expect(m.state.outcome).toBeUndefined();
    expect(m.state.phase).toBe('running');
  });

  it('clears the ending of a run that reached its cap, tells the model how it ended, and grants the cap again', () => {
    const m = new Machine(runState({ iteration: 10, outcome: { kind: 'max_iterations' }, phase: 'max_iterations', messages: [{ role: 'user', content: 'the task' }, { role: 'assistant', content: [call('a', 'read_file', { path: 'x' })] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] }] }));
    m.send(resumed());
    expect(m.state.outcome).toBeUndefined();
    expect(m.state.input.maxIterations).toBe(20);
    const last = m.state.messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(JSON.stringify(last.content)).toContain('This run continues an earlier run (old-run), which stopped at its iteration cap after 10 iteration(s)');
    expect(m.next()).toMatchObject({ kind: 'call_model' });
  });

  it('gives a completed run `moreIterations` past those it used, and reopens its closed thread', () => {
    const completion = { summary: 'half done', status: 'partial' as const, next_steps: 'do the rest' };
    const m = new Machine(runState({ iteration: 4, completion, outcome: { kind: 'completed' }, phase: 'completed', thread: { completions: [completion], iterationBase: 0, inbox: [], closeRequested: true, idleSince: '2026-11-23T10:00:00.000Z' } }));
    m.send(resumed(5));
    expect(m.state.input.maxIterations).toBe(9);
    expect(m.state.completion).toBeUndefined();
    expect(m.state.thread.idleSince).toBeUndefined();
    expect(m.state.thread.closeRequested).toBe(false);
    expect(m.state.messages.at(-1)).toEqual({ role: 'user', content: 'the task\n\nThis run continues an earlier run (old-run), which ended partial after 4 iteration(s): half done\nIts next steps: do the rest\nCarry on with the work from where it stopped.' });
  });
});
