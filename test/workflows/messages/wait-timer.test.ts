// Issue 31: a wait that messages interrupt keeps its timer. The loop leaves a wait whenever something
// arrives (to apply it), and enters it again; a new timer each time would be a command per message
// and would move nothing, so the same deadline keeps the one timer.
import { describe, expect, it } from 'vitest';
import { approvalSignal, statusQuery, userMessageSignal } from '../../../src/contract/agent-run-api';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { complete, parked, write } from '../approval-test-kit';

describe('a wait that messages interrupt', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('keeps its one approval timer through steering messages and a refused decision', async () => {
    const task = uniqueId('one-timer');
    fake.script(task, [reply(write('a.txt')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      for (const text of ['first', 'second', 'third']) await handle.signal(userMessageSignal, { text });
      await handle.signal(approvalSignal, { callId: 'toolu_9_9', decision: 'approve' });
      const status = await handle.query(statusQuery);
      expect(status.phase).toBe('waiting_approval');
      expect(status.ignored).toEqual([expect.objectContaining({ kind: 'approval', reason: expect.stringMatching(/no pending approval with callId toolu_9_9/) })]);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
      const events = (await handle.fetchHistory()).events ?? [];
      const started = events.filter((e) => e.timerStartedEventAttributes);
      expect(started).toHaveLength(1);
      expect(started[0]!.userMetadata?.summary).toBeDefined();
    });
  });
});
