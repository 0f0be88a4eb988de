// `agentctl run` following a run: Ctrl-C stops only the following, and --json keeps stdout for the
// outcome. Real `agentctl` processes against the shared dev server and a worker on the fake model.
import { describe, expect, it } from 'vitest';
import { waitForPhase, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { useAgentTestbed } from '../support/agent-testbed';
import { temporalAddress, uniqueId } from '../support/temporal';
import { agentctl, startAgentctl } from './agentctl-process';

describe('agentctl run, following', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  const cli = (h: RunHarness) => ({ TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: h.taskQueue, USER: 'tester' });

  it('exits 130 on Ctrl-C while following, and the run goes on to finish', async () => {
    const task = uniqueId('ctrl-c');
    fake.script(task, [
      reply(toolCall('write_file', { path: 'after-ctrl-c.md', content: 'hi' })),
      reply(toolCall('complete_task', { summary: 'Wrote it after Ctrl-C', status: 'success' })),
    ]);
    await withAgentWorker(bed.harness(), async (h) => {
      const id = uniqueId('run');
      const follower = startAgentctl(['run', 'general', task, '--id', id], cli(h), '');
      await follower.waitFor(/Waiting for a decision/);
      follower.child.kill('SIGINT');
      const { code, stdout } = await follower.done;
      expect(code).toBe(130);
      expect(stdout).toContain(`Stopped following; the run goes on. Follow it again with: npx agentctl watch ${id}`);
      // The run was not touched: still parked, and it finishes once approved.
      const handle = h.client.workflow.getHandle(id);
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await waitForPhase(handle, 'waiting_approval');
      expect((await agentctl(['approve', id], cli(h))).code).toBe(0);
      const result = await agentctl(['result', id, '--json'], cli(h));
      expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'completed', result: { status: 'completed', completion: { summary: 'Wrote it after Ctrl-C' } } });
    });
  });

  it('run --json writes the live lines to stderr and only the final outcome, as JSON, to stdout', async () => {
    const task = uniqueId('json');
    fake.script(task, [
      reply(text('Looking around first.'), toolCall('list_files', {})),
      reply(toolCall('complete_task', { summary: 'Listed the files', status: 'success' })),
    ]);
    await withAgentWorker(bed.harness(), async (h) => {
      const id = uniqueId('run');
      const { code, stdout, stderr } = await agentctl(['run', 'general', task, '--id', id, '--json'], cli(h));
      expect(code).toBe(0);
      // stdout is one JSON document and nothing else.
      expect(JSON.parse(stdout)).toMatchObject({ kind: 'completed', workflowId: id, result: { status: 'completed', iterations: 2, completion: { summary: 'Listed the files' } } });
      expect(stdout).not.toContain('Iteration');
      // The live lines went to stderr.
      expect(stderr).toMatch(/── Iteration 1\/40/);
      expect(stderr).toMatch(/✓ list_files: \{\} \(\d+ ms\)/);
      expect(stderr).toMatch(/── Iteration 2\/40/);
      expect(stderr).not.toContain('"kind": "completed"');
    });
  });
});
