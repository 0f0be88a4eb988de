// Issue 31, finding 8: what a thread keeps is bounded. Its inbox takes at most 20 messages and 256 KiB
// (a message past either is refused with the reason, not kept), and its status carries the last
// completions with a count of all of them.
import { ApplicationFailure, WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { closeThreadUpdate, sendMessageUpdate, statusQuery, userMessageSignal } from '../../../src/contract/agent-run-api';
import { FailureType } from '../../../src/contract/errors';
import { StateLimits } from '../../../src/core/machine/run-state';
import { waitFor, waitForPhase, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { uniqueId } from '../../support/temporal';
import { complete } from '../approval-test-kit';
import { within } from './message-kit';

describe('a thread keeps a bounded inbox and reports its completions with a count', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('has the limits in StateLimits', () => {
    expect(StateLimits).toMatchObject({ inbox: 20, inboxBytes: 256 * 1024 });
  });

  it('refuses a message past the inbox\'s count or size, saying why, and keeps the rest', async () => {
    const task = uniqueId('full-inbox');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    fake.script(task, [complete('first').until(gate), complete('second')]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, followUps: true });
      await waitFor(async () => (fake.requestsFor(task).length > 0 ? true : undefined), 'the first model request');
      for (let i = 1; i <= 21; i++) await handle.signal(userMessageSignal, { text: `small ${i}` });
      const refusal = await within(handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'one more' }] }), 20_000).then(() => undefined, (e: unknown) => e);
      expect(refusal).toBeInstanceOf(WorkflowUpdateFailedError);
      const cause = (refusal as WorkflowUpdateFailedError).cause as ApplicationFailure;
      expect(cause.type).toBe(FailureType.DecisionRefused);
      expect(cause.message).toMatch(/inbox .*full.*20 messages/);
      const status = await handle.query(statusQuery);
      expect(status.ignored).toEqual([expect.objectContaining({ kind: 'userMessage', reason: expect.stringMatching(/inbox .*full.*20 messages/), payload: expect.stringContaining('small 21') })]);
      // Now the state holds the full inbox, so the validator refuses before the update is written: the
      // caller sees the same DecisionRefused as from the loop (it was a plain Error: a CI run met it).
      const early = await within(handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'and another' }] }), 20_000).then(() => undefined, (e: unknown) => e);
      expect(((early as WorkflowUpdateFailedError).cause as ApplicationFailure).type).toBe(FailureType.DecisionRefused);
      open();
      await handle.terminate('test over');
    });
  });

  it('refuses a message that would take the inbox past 256 KiB', async () => {
    const task = uniqueId('big-inbox');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    fake.script(task, [complete('first').until(gate)]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, followUps: true });
      await waitFor(async () => (fake.requestsFor(task).length > 0 ? true : undefined), 'the first model request');
      const big = (i: number) => `${i}`.padEnd(100_000, 'x');
      await handle.startUpdate(sendMessageUpdate, { args: [{ text: big(1) }], waitForStage: WorkflowUpdateStage.ACCEPTED });
      await handle.signal(userMessageSignal, { text: big(2) });
      await handle.signal(userMessageSignal, { text: big(3) });
      const status = await handle.query(statusQuery);
      expect(status.ignored).toEqual([expect.objectContaining({ kind: 'userMessage', reason: expect.stringMatching(/inbox .*full.*256 KiB/) })]);
      open();
      await handle.terminate('test over');
    });
  });

  it('reports how many completions a thread has, beside the last ones', async () => {
    const task = uniqueId('counted');
    fake.script(task, [complete('one'), complete('two')]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, followUps: true });
      await waitForPhase(handle, 'idle');
      await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'again' }] });
      await waitFor(async () => ((await handle.query(statusQuery)).completions.length === 2 ? true : undefined), 'the second completion');
      expect((await handle.query(statusQuery)).completionCount).toBe(2);
      await handle.executeUpdate(closeThreadUpdate, { args: [] });
    });
  });
});
