// Issue 31, finding 10: nothing a run is told or tells is dropped silently. A sub-agent's run that
// cannot reach its parent says so in its warnings; a malformed `childStatus` is recorded as ignored;
// and `sendMessage` answers when its own message is delivered, even when another has the same text.
import { WorkflowUpdateStage } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { childStatusSignal, sendMessageUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { complete, parked, write } from '../approval-test-kit';
import { within } from './message-kit';

describe('what a run is told and tells', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('a sub-agent run whose parent cannot be told says so in its warnings', async () => {
    const task = uniqueId('orphan');
    fake.script(task, [reply(write('a.txt')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const missing = uniqueId('no-such-parent');
      const handle = await start({ agent: 'general', task, parent: { workflowId: missing, rootWorkflowId: missing, depth: 1 } });
      await parked(handle);
      const status = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.warnings.length > 0 ? s : undefined;
      }, 'a warning about the parent');
      expect(status.warnings).toEqual([expect.stringMatching(new RegExp(`could not tell its parent run ${missing}`))]);
    });
  });

  it('records a malformed childStatus as ignored', async () => {
    const task = uniqueId('bad-child-status');
    fake.script(task, [reply(write('a.txt')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      await handle.signal(childStatusSignal, { workflowId: 'x', waiting: { approvals: 'not a list' } } as never);
      const status = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.ignored.length > 0 ? s : undefined;
      }, 'the ignored childStatus');
      expect(status.ignored).toEqual([expect.objectContaining({ kind: 'childStatus', reason: expect.stringMatching(/malformed childStatus/) })]);
    });
  });

  it('answers a sendMessage when its own message is delivered, not when the last one with the same text is', async () => {
    const task = uniqueId('same-text');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The first message's turn parks on a write, so the second message stays in the inbox.
    fake.script(task, [complete('first').until(gate), reply(write('b.txt')), complete('never')]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, followUps: true });
      await waitFor(async () => (fake.requestsFor(task).length > 0 ? true : undefined), 'the first model request');
      const one = await handle.startUpdate(sendMessageUpdate, { args: [{ text: 'same' }], waitForStage: WorkflowUpdateStage.ACCEPTED });
      await handle.startUpdate(sendMessageUpdate, { args: [{ text: 'same' }], waitForStage: WorkflowUpdateStage.ACCEPTED });
      open();
      expect(await within(one.result(), 20_000, 'the first sendMessage')).toMatchObject({ applied: true, message: expect.stringMatching(/delivered/) });
      await parked(handle);
      await handle.terminate('test over');
    });
  });
});
