// Issue 31, finding 9: a tool call runs in the background while the loop takes other steps, so nothing
// may await its promise. If running it fails in the workflow (not the activity: that is a result), the
// failure must become an event for the loop, never an unhandled rejection (which fails the workflow
// task, and Temporal retries that forever). Here the activity cannot even be scheduled: the test runs
// outside a workflow, so scheduling throws, as any bug in the call's own code would.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeadlineTimer } from '../../src/workflows/deadline-timer';
import { Mailbox } from '../../src/workflows/mailbox';
import type { RunDriver } from '../../src/workflows/run-driver';
import { takeStep, type StepContext } from '../../src/workflows/take-step';
import { runState } from '../core/machine/state-factory';

describe('a tool call in the background', () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => void unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', record);
  });
  afterEach(() => void process.off('unhandledRejection', record));

  it('turns a failure of its own into the call\'s result event, with nothing left unhandled', async () => {
    const call = { id: 'toolu_1', name: 'read_file', input: { path: 'a' }, stage: { kind: 'run' as const, started: true, permission: { by: 'rule' as const, writes: false } }, lane: 'retryable' as const };
    const state = runState({ turn: { iteration: 1, calls: [call] } as never });
    const mailbox = new Mailbox();
    const ctx: StepContext = {
      driver: { state } as unknown as RunDriver,
      mailbox,
      features: { compactionByBudget: true, concurrentReadTools: true, localQuickTools: true, waitOutModelOutage: true, toolResultEndsRun: true },
      continuePausedTurns: true,
      quickLoop: true,
      running: new Map(),
      timer: new DeadlineTimer(),
      settle: async () => undefined,
    };
    await takeStep({ kind: 'run_tools', calls: [call], endsRun: true }, ctx);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
    // The outcome waits in the mailbox for the loop, which is the only code that applies it.
    expect(mailbox.take()).toEqual({ kind: 'result', event: expect.objectContaining({ type: 'tool_finished', callId: 'toolu_1', result: expect.objectContaining({ success: false, output: expect.stringMatching(/could not run/) }) }) });
    expect(ctx.running.size).toBe(0);
  });
});
