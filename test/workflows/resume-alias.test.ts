// The `resume` input is the path earlier releases resumed by (a new conversation seeded with a summary
// of the run it continued). No code of ours sends it any more, but clients of those releases may, and
// their histories must replay: the workflow still accepts it.
import { describe, expect, it } from 'vitest';
import { checkpointQuery } from '../../src/workflows/definitions';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { firstUserText } from '../support/step-script';
import { uniqueId } from '../support/temporal';

describe('the resume input (compatibility alias)', () => {
  const bed = useAgentTestbed();

  it('still starts a run seeded with the earlier outcome, tasks, key points and usage', async () => {
    const task = uniqueId('resume-alias');
    bed.fake.script(task, [reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    const usage = { inputTokens: 500, outputTokens: 50, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({
        agent: 'general',
        task,
        resume: {
          fromWorkflowId: 'old-run-7',
          previousOutcome: 'The earlier run stopped at its iteration cap after 3 iteration(s).',
          tasks: [{ id: 'a', description: 'Part a', status: 'completed' }],
          savedSummaries: [{ keyPoints: ['KP-ALIAS: part a is in a.txt'], nextSteps: ['part b'] }],
          usage,
          iterationsBefore: 3,
        },
      });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'completed', completion: { status: 'success' } });
      // Usage counts on from the earlier run's.
      expect(result.usage.inputTokens).toBeGreaterThan(usage.inputTokens);
      expect((await handle.query(checkpointQuery)).chain.resumedFrom).toBe('old-run-7');
    });
    const opening = firstUserText(bed.fake.requestsFor(task)[0]!);
    expect(opening.startsWith(task)).toBe(true);
    expect(opening).toContain('## This run continues an earlier run (old-run-7)');
    expect(opening).toContain('The earlier run stopped at its iteration cap after 3 iteration(s).');
    expect(opening).toContain('KP-ALIAS: part a is in a.txt');
    expect(opening).toMatch(/\[a\] Part a/);
  });
});
