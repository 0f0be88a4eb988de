import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import type { ConversationStore } from '../../src/runtime/conversation/conversation-store-types';
import { FailureType } from '../../src/contract/errors';
import { withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { useFakeModel } from '../support/agent-testbed';
import { brokenToolPairs, callId, stepScript, stepTool } from '../support/step-script';

/** What a worker that restarted between every turn, or a run served by many machines, looks like. */
class ForgetfulStore implements ConversationStore {
  saves = 0;
  async load() {
    return undefined;
  }
  async save() {
    this.saves += 1;
  }
  async deleteRun() {}
}

const agent: AgentDefinitionInput = {
  name: 'forgetful',
  description: 'Works in steps on a worker that forgets conversations.',
  modelTier: 'balanced',
  tools: ['step'],
  systemPrompt: 'You work in steps.',
  maxIterations: 20,
};

const TASK = 'Store miss drill: four steps';
const plan = (step: number) =>
  step < 4
    ? reply(toolCall('step', { n: step }, callId(step)))
    : reply(toolCall('complete_task', { summary: 'four steps done', status: 'success' }, callId(step)));

describe('conversation store miss', () => {
  const bed = useFakeModel();
  const fake = bed.fake;

  it('falls back to sending the whole conversation and completes', async () => {
    fake.script(TASK, stepScript(plan));
    const store = new ForgetfulStore();
    await withAgentWorker({ ...bed.harness(), agents: [agent], tools: [stepTool], conversations: store }, async ({ start }) => {
      const handle = await start({ agent: 'forgetful', task: TASK });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'completed', iterations: 5 });

      // Every call after the first missed once, then went through with the full conversation.
      const history = await handle.fetchHistory();
      const misses = (history.events ?? []).filter(
        (e) => e.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.type === FailureType.ConversationStoreMiss,
      );
      expect(misses).toHaveLength(4);
    });

    const requests = fake.requestsFor(TASK);
    expect(requests.map((r) => r.body.messages.length)).toEqual([1, 3, 5, 7, 9]);
    for (const request of requests) expect(brokenToolPairs(request.body.messages)).toEqual([]);
    expect(store.saves).toBe(5);
    expect(fake.errors).toEqual([]);
  });
});
