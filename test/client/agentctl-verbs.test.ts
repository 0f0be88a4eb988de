// The run/status/watch/list/result/cancel verbs, run as real `agentctl` processes against the shared
// dev server and a worker whose model is the fake Messages API.
import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../../src/contract/run-status';
import { waitFor, waitForPhase, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, text, toolCall, type FakeAnthropic } from '../support/fake-anthropic';
import { useAgentTestbed } from '../support/agent-testbed';
import { temporalAddress, uniqueId } from '../support/temporal';
import { agentctl, startAgentctl } from './agentctl-process';

const tasks = (first: string, second: string) => ({
  tasks: [
    { id: '1', description: 'Look around', status: first },
    { id: '2', description: 'Write the notes', status: second },
  ],
});

/** list_files + a task list, then a write that needs approval, then complete_task. */
function scriptParkingRun(fake: FakeAnthropic, task: string) {
  fake.script(task, [
    reply(text('Planning.'), toolCall('update_tasks', tasks('in_progress', 'pending')), toolCall('list_files', {})),
    reply(toolCall('update_tasks', tasks('completed', 'in_progress')), toolCall('write_file', { path: 'notes.md', content: 'hi' })),
    reply(toolCall('update_tasks', tasks('completed', 'completed')), toolCall('complete_task', { summary: 'Wrote notes.md', status: 'success' })),
  ]);
}

describe('agentctl run, status, watch, list, result, cancel', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  const cli = (h: RunHarness) => ({ TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: h.taskQueue, USER: 'tester' });

  it('run follows a run live: iterations, tools with timing, progress, the approval prompt and the summary', async () => {
    const task = uniqueId('live');
    scriptParkingRun(fake, task);
    await withAgentWorker(bed.harness(), async (h) => {
      const id = uniqueId('run');
      // --interactive with piped answers: the prompt reads "maybe" (refused), then "y".
      const { code, stdout } = await agentctl(['run', 'general', task, '--id', id, '--interactive', '--user', 'alice'], cli(h), 'maybe\ny\n');
      expect(code).toBe(0);
      const lines = stdout.split('\n');
      const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
      expect(at(/^Started /)).toBe(0);
      expect(at(/── Iteration 1\/40/)).toBeLessThan(at(/✓ list_files: \{\} \(\d+ ms\)/));
      expect(at(/✓ list_files/)).toBeLessThan(at(/── Iteration 2\/40/));
      expect(stdout).toContain('Progress: 0/2 tasks (0%)');
      expect(stdout).toContain('⏳ [2] Write the notes');
      expect(stdout).toContain('Tool: write_file');
      expect(stdout).toContain('Approve? [y/n/always/never]: Please answer y, n, always or never.');
      expect(at(/👍 write_file approved by alice/)).toBeLessThan(at(/✓ write_file: notes\.md \(\d+ ms\)/));
      expect(at(/── Iteration 3\/40/)).toBeGreaterThan(at(/✓ write_file/));
      expect(stdout).toContain(`✅ Run ${id} finished after 3 iteration(s): success`);
      expect(stdout).toContain('Summary: Wrote notes.md');
      expect(stdout).toContain('Progress: 2/2 tasks (100%)');
      expect(stdout).toMatch(/Tokens: 300 in \/ 60 out/);
    });
  });

  it('run without a terminal prints how to approve with agentctl, and finishes once someone does', async () => {
    const task = uniqueId('hint');
    scriptParkingRun(fake, task);
    await withAgentWorker(bed.harness(), async (h) => {
      const id = uniqueId('run');
      const follower = startAgentctl(['run', 'general', task, '--id', id], cli(h), '');
      await follower.waitFor(/Waiting for a decision/);
      expect(follower.stdout()).toContain(`Approve: npx agentctl approve ${id}`);
      expect(follower.stdout()).not.toContain('Approve? [y/n');
      const approved = await agentctl(['approve', id], cli(h));
      expect(approved.code).toBe(0);
      const { code, stdout } = await follower.done;
      expect(code).toBe(0);
      expect(stdout).toContain('👍 write_file approved by tester');
      expect(stdout).toContain(`✅ Run ${id} finished`);
    });
  });

  it('run --detach only starts; status, list, watch, cancel and result then report on the run', async () => {
    const task = uniqueId('detach');
    scriptParkingRun(fake, task);
    await withAgentWorker(bed.harness(), async (h) => {
      const id = uniqueId('run');
      const started = await agentctl(['run', 'general', task, '--id', id, '--detach', '--json', '--priority', '1', '--fairness-key', 'tenant-b'], cli(h));
      expect(JSON.parse(started.stdout)).toEqual({ workflowId: id });
      expect((await h.client.workflow.getHandle(id).describe()).raw.workflowExecutionInfo?.priority).toMatchObject({ priorityKey: 1, fairnessKey: 'tenant-b' });
      await waitForPhase(h.client.workflow.getHandle(id), 'waiting_approval');

      const statusJson = await agentctl(['status', id, '--json'], cli(h));
      const status = JSON.parse(statusJson.stdout) as RunStatus;
      // The turn's update_tasks runs after the parked call is decided, so progress is still the first turn's.
      expect(status).toMatchObject({ workflowId: id, phase: 'waiting_approval', progress: { completed: 0, total: 2, percent: 0 } });
      const statusText = (await agentctl(['status', id], cli(h))).stdout;
      expect(statusText).toContain('Phase: waiting_approval · iteration 2/40');
      expect(statusText).toContain('Progress: 0/2 tasks (0%)');
      expect(statusText).toContain('🔄 [1] Look around');
      expect(statusText).toMatch(/Waiting for approval:\n {2}toolu_1_1 {2}write_file/);

      // Visibility is eventually consistent: the search attribute shows the phase within moments.
      const listed = await waitFor(async () => {
        const out = await agentctl(['list', '--agent', 'general', '--phase', 'waiting_approval', '--limit', '50', '--json'], cli(h));
        const rows = JSON.parse(out.stdout) as { workflowId: string; phase: string; agent: string }[];
        return rows.find((r) => r.workflowId === id);
      }, 'the run in `list`');
      expect(listed).toMatchObject({ agent: 'general', phase: 'waiting_approval' });

      const watcher = startAgentctl(['watch', id], cli(h), '');
      await watcher.waitFor(/Waiting for a decision/);
      const cancelled = await agentctl(['cancel', id], cli(h));
      expect(cancelled).toMatchObject({ code: 0, stdout: `🛑 Run ${id} was cancelled.\n` });
      expect((await watcher.done).stdout).toContain(`🛑 Run ${id} was cancelled.`);

      const result = await agentctl(['result', id], cli(h));
      expect(result).toMatchObject({ code: 1, stdout: `🛑 Run ${id} was cancelled.\n` });
      expect(JSON.parse((await agentctl(['result', id, '--json'], cli(h))).stdout)).toEqual({ kind: 'cancelled', workflowId: id });
      expect(JSON.parse((await agentctl(['status', id, '--json'], cli(h))).stdout)).toMatchObject({ phase: 'cancelled' });
      await waitFor(async () => {
        const rows = JSON.parse((await agentctl(['list', '--phase', 'cancelled', '--limit', '50', '--json'], cli(h))).stdout) as { workflowId: string }[];
        return rows.find((r) => r.workflowId === id);
      }, 'the cancelled run in `list --phase cancelled`');
      expect(await agentctl(['cancel', id], cli(h))).toMatchObject({ code: 1, stdout: expect.stringContaining('already ended (CANCELLED)') });
    });
  });

  it('watch on a finished run shows its last steps and how it ended', async () => {
    const task = uniqueId('finished');
    fake.script(task, [reply(toolCall('list_files', {})), reply(toolCall('complete_task', { summary: 'Listed', status: 'partial', next_steps: 'read them' }))]);
    await withAgentWorker(bed.harness(), async (h) => {
      const handle = await h.start({ agent: 'general', task });
      await handle.result();
      const { code, stdout } = await agentctl(['watch', handle.workflowId], cli(h));
      expect(code).toBe(0);
      expect(stdout).toMatch(/── Iteration 1\/40\n {2}✓ list_files: \{\} \(\d+ ms\)\n── Iteration 2\/40/);
      expect(stdout).toContain(`✅ Run ${handle.workflowId} finished after 2 iteration(s): partial`);
      expect(stdout).toContain('Next steps: read them');
    });
  });

  it('names the agents when a run asks for an unknown one', async () => {
    await withAgentWorker(bed.harness(), async (h) => {
      const { code, stdout } = await agentctl(['run', 'nosuch', 'do something'], cli(h));
      expect(code).toBe(1);
      expect(stdout).toMatch(/❌ Run \S+ failed \(UnknownAgent\): Unknown agent "nosuch"\. Agents on this worker: general, reader\./);
    });
  });

  it('says so for an unknown run id, on every verb that takes one', async () => {
    const env = { TEMPORAL_ADDRESS: temporalAddress() };
    for (const verb of ['status', 'watch', 'result', 'cancel']) {
      const missing = uniqueId('missing');
      const { code, stderr } = await agentctl([verb, missing], env);
      expect({ verb, code, stderr }).toEqual({ verb, code: 1, stderr: `Unknown run: ${missing}. List runs with \`agentctl list\`.\n` });
    }
  });

  it('says where it tried and how to start Temporal when the server cannot be reached', async () => {
    const { code, stderr } = await agentctl(['list'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Cannot reach Temporal at 127\.0\.0\.1:1 .*Start one with `npm start`/);
  });

  it('refuses bad flags with the usage line and exit code 2', async () => {
    const env = { TEMPORAL_ADDRESS: '127.0.0.1:1' };
    expect(await agentctl(['run', 'general', 'x', '--max-iterations', '0'], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--max-iterations must be a positive whole number') });
    expect(await agentctl(['run', 'general', 'x', '--priority', '7'], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--priority must be a whole number from 1 (first) to 5 (last) (got "7")') });
    expect(await agentctl(['run', 'general', 'x', '--approval-timeout', 'soon'], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: agentctl run') });
    expect(await agentctl(['list', '--phase', 'sleeping'], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('Phases: starting, running') });
  });
});
