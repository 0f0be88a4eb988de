// `agentctl fork` and `agentctl send` to a plain run, through the real binary (issue 23, items 3 and 5).
import { describe, expect, it } from 'vitest';
import { statusQuery } from '../../../src/contract/agent-run-api';
import { agentctl } from '../../client/agentctl-process';
import { waitForApprovals, withAgentWorker, type RunHarness } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';

const cli = (h: RunHarness) => ({ TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: h.taskQueue, USER: 'tester' });
const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

describe('agentctl fork', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('--detach --json prints only the new workflow id, says the shared workspace is not rolled back, and the fork runs', async () => {
    const task = uniqueId('cli-fork');
    fake.script(task, [reply(toolCall('list_files', { path: '.' })), complete(), complete()]);
    await withAgentWorker(bed.harness(), async (h) => {
      const original = await h.start({ agent: 'general', task });
      await original.result();
      const forked = await agentctl(['fork', original.workflowId, '--iteration', '1', '--task', 'look again', '--detach', '--json'], cli(h));
      expect(forked.code).toBe(0);
      const answer = JSON.parse(forked.stdout) as Record<string, unknown>;
      expect(Object.keys(answer)).toEqual(['workflowId']);
      expect(answer.workflowId).toMatch(new RegExp(`^${original.workflowId}-fork1-`));
      expect(forked.stderr).toContain('Files in the shared workspace are not rolled back');
      const handle = h.client.workflow.getHandle(answer.workflowId as string);
      expect((await handle.result()).status).toBe('completed');
      expect((await handle.describe()).memo).toMatchObject({ forkedFrom: original.workflowId, forkedAtIteration: 1 });
    });
    expect(JSON.stringify(fake.requestsFor(task).at(-1)?.body.messages.at(-1))).toContain('look again');
  });

  it('refuses an iteration the run never reached, a run that does not exist, and a missing --iteration', async () => {
    const task = uniqueId('cli-fork-bad');
    fake.script(task, [complete()]);
    await withAgentWorker(bed.harness(), async (h) => {
      const original = await h.start({ agent: 'general', task });
      await original.result();
      const never = await agentctl(['fork', original.workflowId, '--iteration', '9', '--detach'], cli(h));
      expect(never.code).toBe(1);
      expect(never.stderr).toContain(`Run ${original.workflowId} never completed iteration 9: it reached iteration 1.`);
      const missing = await agentctl(['fork', 'no-such-run-here', '--iteration', '1', '--detach'], cli(h));
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('There is no run no-such-run-here');
      const usage = await agentctl(['fork', original.workflowId], cli(h));
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('fork needs --iteration N');
    });
  });

  it('send steers a parked run that is not a thread, and refuses a closed one with what to do', async () => {
    const task = uniqueId('cli-steer');
    fake.script(task, [reply(toolCall('write_file', { path: 'a.md', content: 'x' })), complete()]);
    await withAgentWorker(bed.harness(), async (h) => {
      const run = await h.start({ agent: 'general', task });
      await waitForApprovals(run);
      const sent = await agentctl(['send', run.workflowId, 'use', 'tabs'], cli(h));
      expect(sent.code).toBe(0);
      expect(sent.stdout).toContain('message queued');
      expect((await run.query(statusQuery)).phase).toBe('waiting_approval');
      await run.terminate('test done');
      const closed = await agentctl(['send', run.workflowId, 'too', 'late'], cli(h));
      expect(closed.code).toBe(1);
      expect(closed.stderr).toContain('has ended (terminated) and takes no messages');
    });
  });
});
