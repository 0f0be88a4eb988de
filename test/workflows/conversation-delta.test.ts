// Delta passing: after the first model call, the workflow hands the model activity only the messages
// the activity does not already keep, so a run's history grows with each turn's news rather than with
// the whole conversation every turn. Read from the real history, as the server stores it.
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { CallModelInput } from '../../src/runtime/activities/call-model';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

describe('model activity inputs', () => {
  const bed = useAgentTestbed();

  it('carry the whole conversation only on the first call, then only the new messages', async () => {
    const task = uniqueId('delta');
    bed.fake.script(task, [
      reply(text('Looking.'), toolCall('list_files', { path: '.' })),
      reply(toolCall('list_files', { path: '.' })),
      reply(toolCall('complete_task', { summary: 'looked twice', status: 'success' })),
    ]);
    const inputs = await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      expect((await handle.result()).status).toBe('completed');
      const history = await handle.fetchHistory();
      return (history.events ?? [])
        .map((e) => e.activityTaskScheduledEventAttributes)
        .filter((a) => a?.activityType?.name === 'callModel')
        .map((a) => defaultPayloadConverter.fromPayload(a!.input!.payloads![0]!) as CallModelInput);
    });

    expect(inputs.map((i) => [i.conversation.baseCount, i.conversation.append.length])).toEqual([
      [0, 1], // the task
      [2, 1], // task + reply kept by the activity; only the tool results are new
      [4, 1],
    ]);
    expect(inputs[0]!.conversation.append[0]!.content).toContain(task);
    for (const later of inputs.slice(1)) {
      expect(later.conversation.tag).toEqual(expect.any(String));
      expect(JSON.stringify(later.conversation.append)).not.toContain(task);
      expect(later.conversation.append[0]).toMatchObject({ role: 'user', content: [{ type: 'tool_result' }] });
    }
    // The model still saw the whole conversation each time: the activity joined what it kept.
    expect(bed.fake.requestsFor(task).map((r) => r.body.messages.length)).toEqual([1, 3, 5]);
  });
});
