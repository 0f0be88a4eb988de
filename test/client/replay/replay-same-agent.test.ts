// Issue 35, "Done when": a recorded 20-iteration run replayed against the same agent reports no
// divergence and asks the model nothing; its writes and commands are not run again; its approvals
// are answered from the record. The same holds for the run exported to a file and replayed with the
// testing kit's replayRecordedRun.
import { describe, expect, it } from 'vitest';
import { exportRecordedRun } from '../../../src/client/replay/recorded-run-file';
import { replayRecordedRun } from '../../../src/testing/replay-recorded-run';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, text, toolCall, type Reply } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';
import { approveUntilDone, openTestLab } from './replay-support';

const bed = useAgentTestbed();
const fake = bed.fake;

/** 19 working turns (reads, writes that ask, a command that asks), then the completion. */
function twentyIterations(): Reply[] {
  const turns = Array.from({ length: 19 }, (_, i) => {
    const n = i + 1;
    if (n % 6 === 0) return reply(text(`Writing part ${n}.`), toolCall('write_file', { path: `part-${n}.md`, content: `part ${n}\n` }));
    if (n === 9) return reply(toolCall('shell', { command: 'ls -la' }));
    if (n % 2 === 0) return reply(toolCall('read_file', { path: `part-${n - 2 > 0 ? n - 2 : 6}.md` }));
    return reply(text(`Step ${n}.`), toolCall('list_files', { path: '.' }));
  });
  return [...turns, reply(toolCall('complete_task', { summary: 'Twenty iterations done', status: 'success' }))];
}

describe('replaying a run against the same agent', () => {
  it('reports no divergence after 20 iterations, with no model call and nothing run again', async () => {
    const task = uniqueId('replay-twenty');
    fake.script(task, twentyIterations());
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const run = await start({ agent: 'general', task });
      expect(await approveUntilDone(run)).toBe(4);
      expect((await run.result()).iterations).toBe(20);
      const requests = fake.requests.length;

      const lab = await openTestLab(client, fake);
      try {
        const report = await lab.replay(run.workflowId);
        expect(report.diverged).toBe(false);
        expect(report.firstDivergence).toBeNull();
        expect(report.modelCalls).toEqual({ recorded: 20, replayed: 20, live: 0 });
        expect(fake.requests.length).toBe(requests);
        expect(report.toolCallsShadow).toBe(report.toolCallsRecorded);
        expect(report.toolCallsRecorded).toBe(19);
        expect(report.wouldRun.map((w) => [w.iteration, w.tool, w.recorded])).toEqual([[6, 'write_file', true], [9, 'shell', true], [12, 'write_file', true], [18, 'write_file', true]]);
        expect(report.approvals.recorded).toHaveLength(4);
        expect(report.approvals.shadow.map((a) => [a.callId, a.decision, a.approver, a.source])).toEqual(report.approvals.recorded.map((a) => [a.callId, 'approve', 'ana', 'recorded']));
        expect(report.completion.shadow).toEqual(report.completion.recorded);
        expect(report.completion.recorded).toMatchObject({ outcome: 'completed', status: 'success', iterations: 20 });
        expect(report.cost.recordedUsd).toBeGreaterThan(0);
        expect(report.cost.shadowUsd).toBe(0);
        expect(report.stopped).toBeNull();
        // The shadow is a run of its own, under its own id, that the report names.
        expect(report.shadowWorkflowId).toMatch(new RegExp(`^shadow-${run.workflowId}-`));
        expect((await client.workflow.getHandle(report.shadowWorkflowId).describe()).memo).toEqual({ replayOf: run.workflowId, user: 'default' });
      } finally {
        await lab.close();
      }

      // Exported, the run replays the same way from the file, with the testing kit.
      const file = JSON.parse(JSON.stringify(await exportRecordedRun(client, run.workflowId))) as unknown;
      const env = { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.baseUrl };
      const fromFile = await replayRecordedRun({ history: file, address: temporalAddress(), env });
      expect(fromFile.diverged).toBe(false);
      expect(fromFile.modelCalls).toEqual({ recorded: 20, replayed: 20, live: 0 });
      expect(fake.requests.length).toBe(requests);

      // A changed prompt makes the same file diverge at its first request, still without a model call.
      const changed = await replayRecordedRun({
        history: file,
        address: temporalAddress(),
        env,
        agents: [{ name: 'general', description: 'changed', modelTier: 'balanced', tools: ['read_file', 'write_file', 'list_files', 'search_files', 'shell'], systemPrompt: 'You are terse.', maxIterations: 40 }],
      });
      expect(changed.firstDivergence).toMatchObject({ iteration: 1, kind: 'model_request', what: 'the system prompt differs' });
      expect(changed.modelCalls.live).toBe(0);
      expect(fake.requests.length).toBe(requests);
    });
  });
});
