import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import type { ConversationStore } from '../../src/runtime/conversation/conversation-store-types';
import { FailureType } from '../../src/contract/errors';
import { withAgentWorker } from '../support/agent-run-harness';
import { reply, text, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { useFakeModel } from '../support/agent-testbed';
import { statusQuery } from '../../src/contract/agent-run-api';
import { brokenToolPairs, callId, messageTokens, stepScript, stepTool } from '../support/step-script';

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
  it('sends the whole conversation to the summarizer after a miss, and the compaction goes on', async () => {
    // A window a few 800-character outputs overflow, so the run compacts on a worker that forgets.
    const tiny: AgentDefinitionInput = { ...agent, name: 'forgetful-tiny', context: { windowTokens: 2_000, targetShare: 0.5, keepRecentTurns: 2 } };
    const task = 'Store miss compaction drill: eight steps';
    const steps = (step: number, request: FakeRequest) => {
      const usage = { input_tokens: messageTokens(request), output_tokens: 10 };
      if (step < 8) return reply(toolCall('step', { n: step, size: 800 }, callId(step))).withUsage(usage);
      return reply(toolCall('complete_task', { summary: 'eight steps done', status: 'success' }, callId(step))).withUsage(usage);
    };
    // Registered first: the summarizer's prompt quotes the task, so the task's script would match it too.
    let summaries = 0;
    fake.script('The task:', Array.from({ length: 20 }, () => reply(() => reply(text(`SUMMARY-${++summaries}`)))));
    fake.script(task, stepScript(steps));
    await withAgentWorker({ ...bed.harness(), agents: [tiny], tools: [stepTool], conversations: new ForgetfulStore() }, async ({ start }) => {
      const handle = await start({ agent: 'forgetful-tiny', task });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      const status = await handle.query(statusQuery);
      expect(status.compactions).toBeGreaterThanOrEqual(1);

      const events = (await handle.fetchHistory()).events ?? [];
      const scheduled = (name: string) => events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === name).map((e) => String(e.eventId));
      const summarizing = scheduled('summarizeConversation');
      const missed = events.filter(
        (e) =>
          e.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.type === FailureType.ConversationStoreMiss &&
          summarizing.includes(String(e.activityTaskFailedEventAttributes.scheduledEventId)),
      );
      // Each compaction missed once (the store forgot), then went through with the whole conversation.
      expect(missed.length).toBeGreaterThanOrEqual(1);
      expect(summarizing.length).toBe(missed.length + summaries);
    });
    expect(summaries).toBeGreaterThanOrEqual(1);
    for (const request of fake.requestsFor(task)) expect(brokenToolPairs(request.body.messages)).toEqual([]);
    expect(fake.errors).toEqual([]);
  });
});
