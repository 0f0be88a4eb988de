import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import type { LifecycleEvent } from '../../src/contract/lifecycle-event';
import { modelIdForTier } from '../../src/contract/model-tiers';
import { statusQuery } from '../../src/contract/agent-run-api';
import { withAgentWorker } from '../support/agent-run-harness';
import { reply, text, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { useFakeModel } from '../support/agent-testbed';
import { brokenToolPairs, callId, firstUserText, messageTokens, stepScript, stepTool } from '../support/step-script';

/** A context window small enough that a few 800-character tool outputs overflow it. */
const tinyAgent: AgentDefinitionInput = {
  name: 'tiny',
  description: 'An agent with a tiny context budget.',
  modelTier: 'balanced',
  tools: ['step'],
  systemPrompt: 'You work in steps.',
  maxIterations: 40,
  context: { windowTokens: 2_000, targetShare: 0.5, keepRecentTurns: 2 },
};

const TASK = 'Compaction drill: do steps 2 to 13';
const LAST_STEP = 13;
const TASKS = [
  { id: 'plan', description: 'Plan the steps', status: 'completed' as const },
  { id: 'steps', description: 'Do the numbered steps', status: 'in_progress' as const },
];

/**
 * Step 0 writes the task list, step 1 saves a key point, steps 2-13 produce 800-character outputs,
 * then the agent completes. Usage reports the conversation's own size, as the API would count it
 * for a window where tool definitions are a negligible share (here they would fill it alone).
 */
function plan(step: number, request: FakeRequest) {
  const usage = { input_tokens: messageTokens(request), output_tokens: 10 };
  if (step === 0) return reply(toolCall('update_tasks', { tasks: TASKS }, callId(0))).withUsage(usage);
  if (step === 1) {
    const saved = { keyPoints: ['KEYPOINT-ALPHA: the answer is 42'], nextSteps: ['do the numbered steps'] };
    return reply(toolCall('summarize_and_continue', saved, callId(1))).withUsage(usage);
  }
  if (step <= LAST_STEP) return reply(text(`Step ${step}.`), toolCall('step', { n: step, size: 800 }, callId(step))).withUsage(usage);
  return reply(toolCall('complete_task', { summary: 'all steps done', status: 'success' }, callId(step))).withUsage(usage);
}

describe('compaction', () => {
  const bed = useFakeModel();
  const fake = bed.fake;

  it('summarizes older turns on the fast tier and keeps pairs, the task, the task list and saved points', async () => {
    // Registered first: the summarizer's prompt quotes the task, so the task's script would match it too.
    let summaries = 0;
    fake.script('The task:', Array.from({ length: 50 }, () => reply(() => reply(text(`SUMMARY-${++summaries}`)))));
    fake.script(TASK, stepScript(plan));
    const events: LifecycleEvent[] = [];

    await withAgentWorker(
      { ...bed.harness(), agents: [tinyAgent], tools: [stepTool], lifecycleHandlers: [{ handle: (e) => void events.push(e) }] },
      async ({ start }) => {
        const handle = await start({ agent: 'tiny', task: TASK });
        const result = await handle.result();
        expect(result.status).toBe('completed');
        expect(result.completion?.status).toBe('success');

        const status = await handle.query(statusQuery);
        expect(status.compactions).toBeGreaterThanOrEqual(2);
        const compacted = events.filter((e) => e.name === 'contextCompacted');
        expect(compacted).toHaveLength(status.compactions);
        expect(compacted[0]!.data).toMatchObject({ messagesBefore: expect.any(Number), messagesAfter: expect.any(Number) });
      },
    );

    const summarizer = fake.requestsFor('The task:');
    expect(summarizer.length).toBeGreaterThanOrEqual(2);
    for (const request of summarizer) {
      expect(request.body.model).toBe(modelIdForTier('fast', {}));
      expect(firstUserText(request).startsWith(`The task: ${TASK}`)).toBe(true);
    }

    const main = fake.requestsFor(TASK);
    const afterCompaction = main.filter((r) => firstUserText(r).includes('## Summary of earlier work'));
    expect(afterCompaction.length).toBeGreaterThanOrEqual(2);
    // Each compaction's summary replaces the previous one; the latest summarizer answer is what the model sees.
    expect(new Set(afterCompaction.map((r) => /SUMMARY-\d+/.exec(firstUserText(r))?.[0])).size).toBeGreaterThanOrEqual(2);
    for (const request of afterCompaction) {
      const first = firstUserText(request);
      expect(first.startsWith(TASK)).toBe(true);
      expect(first).toContain('## Task list');
      expect(first).toContain('[steps] Do the numbered steps');
      expect(first).toContain('KEYPOINT-ALPHA: the answer is 42');
      expect(brokenToolPairs(request.body.messages)).toEqual([]);
      // The conversation goes on right where it was: the last message answers the last call.
      expect(request.body.messages.at(-1)?.role).toBe('user');
    }
    for (const request of main) expect(brokenToolPairs(request.body.messages)).toEqual([]);
    // Every step ran exactly once, compaction or not.
    expect(main.map((r) => r.index).length).toBe(LAST_STEP + 2);
    expect(fake.errors).toEqual([]);
  });
});
