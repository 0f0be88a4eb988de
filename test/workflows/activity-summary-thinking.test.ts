// The Web UI's activity summaries say how many tokens a turn spent thinking. Temporal fixes a summary
// when the activity is scheduled, before the model answers, so a turn's count goes on the activities
// after it: the turn's tool calls and the next model call. Summaries are metadata: replay does not
// compare them, so a history whose summaries say something else still replays.
import { defaultPayloadConverter } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { lifecycleSinks } from '../../src/runtime/lifecycle/lifecycle-sink';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, thinking, toolCall } from '../support/fake-anthropic';
import { callId, stepScript, stepTool } from '../support/step-script';

const thinker: AgentDefinitionInput = {
  name: 'summary-thinker',
  description: 'Thinks some turns, not others.',
  modelTier: 'balanced',
  tools: ['step'],
  systemPrompt: 'You work in steps.',
  maxIterations: 10,
  maxTokens: 8_192,
  thinking: { type: 'enabled', budget_tokens: 2_048 },
};

/** Turn 1 thinks 812 tokens, turn 2 none, turn 3 (completion) 1,250. */
const THOUGHT = [812, 0, 1_250];
/** The step tool as an ordinary activity: a quick tool runs as a local activity, which has no scheduled event to read. */
const slowStep: typeof stepTool = { ...stepTool, quick: false };

describe('activity summaries of a run that thinks', () => {
  const bed = useAgentTestbed();

  it("carry the previous turn's thinking tokens on the turn's tool calls and the next model call, only when it thought, and replay ignores them", async () => {
    const task = 'Summary drill: thinking tokens';
    bed.fake.script(task, stepScript((step) => {
      const call = step < 2 ? toolCall('step', { n: step }, callId(step)) : toolCall('complete_task', { summary: 'done', status: 'success' }, callId(step));
      const thought = THOUGHT[step]!;
      const blocks = thought > 0 ? [thinking(`Turn ${step + 1}: thinking it over.`), call] : [call];
      return reply(...blocks).withUsage({ output_tokens: thought + 20, ...(thought > 0 ? { output_tokens_details: { thinking_tokens: thought } } : {}) });
    }));
    const history = await withAgentWorker({ ...bed.harness(), agents: [thinker], tools: [slowStep] }, async ({ start }) => {
      const handle = await start({ agent: 'summary-thinker', task });
      expect(await handle.result()).toMatchObject({ status: 'completed', iterations: 3, usage: { thinkingTokens: 2_062 } });
      return { ...(await handle.fetchHistory()), workflowId: handle.workflowId };
    });
    const scheduled = (history.events ?? []).filter((e) => ['callModel', 'runTool'].includes(e.activityTaskScheduledEventAttributes?.activityType?.name ?? ''));
    const summaries = scheduled.map((e) => (e.userMetadata?.summary ? (defaultPayloadConverter.fromPayload(e.userMetadata.summary) as string) : undefined));
    expect(summaries).toEqual([
      'model balanced #1',
      'step: {"n":0} · turn 1 thought 812 tokens',
      'model balanced #2 · turn 1 thought 812 tokens',
      // Turn 2 did not think: its tool call and the next model call say nothing of thinking.
      'step: {"n":1}',
      'model balanced #3',
    ]);

    // Replay does not compare summaries: the history with every summary rewritten still replays.
    for (const event of scheduled) event.userMetadata!.summary = defaultPayloadConverter.toPayload('rewritten after the fact');
    await Worker.runReplayHistory({ workflowBundle: bed.harness().workflowBundle, sinks: lifecycleSinks([]) }, history, history.workflowId);
  });
});
