// When a full history makes a run continue as new (issue 31): never while calls of its turn still
// run, in executions of the one-writer patch, since no one in the next link would hear of them.
import { describe, expect, it } from 'vitest';
import { Machine, runState, T0 } from './state-factory';

/** A turn with a read that runs and a write that waits for a person (a checkpoint may hold one). */
function runningAndParked(): Machine {
  const requestedAt = new Date(T0).toISOString();
  return new Machine(
    runState({
      iteration: 1,
      turn: {
        iteration: 1,
        calls: [
          { id: 't1', name: 'read_file', input: { path: 'a' }, stage: { kind: 'run', started: true } },
          { id: 't2', name: 'write_file', input: { path: 'b', content: 'x' }, stage: { kind: 'person', requestedAt, reason: 'write tools: approve' } },
        ],
      },
    }),
  );
}

describe('continue-as-new at a full history', () => {
  it('waits for the running calls first in a one-writer execution, then hands over', () => {
    const m = runningAndParked();
    m.features = { ...m.features, handOverWhenCallsDone: true };
    expect(m.next(true)).toMatchObject({ kind: 'wait', for: 'approval' });
    m.send({ type: 'tool_finished', callId: 't1', result: { success: true, shouldContinue: true, output: 'a' }, durationMs: 1 });
    expect(m.next(true)).toEqual({ kind: 'continue_as_new' });
  });

  it('hands over at once in executions from before it, as their histories did', () => {
    expect(runningAndParked().next(true)).toEqual({ kind: 'continue_as_new' });
  });
});
