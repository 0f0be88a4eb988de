// Issue 34: the budget verbs as real `agentctl` processes against the shared dev server and a worker
// whose model is the fake Messages API: `run --budget-usd`, `pending` showing the parked run, and
// `budget --raise-usd` refused for someone who is not an approver, then applied for one.
import { describe, expect, it } from 'vitest';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { waitFor, waitForPhase, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { useAgentTestbed } from '../support/agent-testbed';
import { costly, spender } from '../support/budget-agents';
import { temporalAddress, uniqueId } from '../support/temporal';
import { agentctl } from './agentctl-process';


describe('agentctl run --budget-usd, pending, budget', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, spender] });
  const fake = bed.fake;
  const cli = (h: RunHarness) => ({ TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: h.taskQueue, USER: 'tester' });

  it('run --budget-usd parks the run, pending shows it, budget --raise-usd refuses a non-approver and lets an approver raise it', async () => {
    const task = uniqueId('cli-budget');
    fake.script(task, [
      // $0.02 and 12,000 tokens; the next call's worst case ($0.02048) would cross $0.03.
      costly(),
      reply(toolCall('complete_task', { summary: 'spent', status: 'success' })),
    ]);
    await withAgentWorker(bed.harness(), async (h) => {
      const id = uniqueId('run');
      expect((await agentctl(['run', 'spender', task, '--id', id, '--budget-usd', '0.03', '--detach', '--json'], cli(h))).code).toBe(0);
      await waitForPhase(h.client.workflow.getHandle(id), 'waiting_budget');
      const pending = await waitFor(async () => {
        const out = await agentctl(['pending'], cli(h));
        return out.stdout.includes(id) ? out.stdout : undefined;
      }, 'the run in `agentctl pending`');
      expect(pending).toContain(`${id}  waiting_budget  spender`);
      expect(pending).toContain('budget: next model call would cross it: spent $0.02 of $0.03, 12000 tokens');
      expect(pending).toContain(`agentctl budget ${id} --raise-usd N`);

      const refused = await agentctl(['budget', id, '--raise-usd', '1', '--approver', 'mallory'], cli(h));
      expect(refused.code).not.toBe(0);
      expect(refused.stdout + refused.stderr).toContain('"mallory" may not raise this run\'s budget (approvers: ana)');
      const raised = await agentctl(['budget', id, '--raise-usd', '1', '--approver', 'ana'], cli(h));
      expect(raised).toMatchObject({ code: 0, stdout: `${id}: budget raised to $1\n` });
      const result = await agentctl(['result', id, '--json'], cli(h));
      expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'completed', result: { status: 'completed' } });
    });
  });

  it('refuses bad budget flags with the usage line and exit code 2', async () => {
    const env = { TEMPORAL_ADDRESS: '127.0.0.1:1' };
    expect(await agentctl(['run', 'general', 'x', '--budget-usd', '0'], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--budget-usd must be a number of USD above 0 (got "0")') });
    expect(await agentctl(['budget', 'run-1'], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('budget needs --raise-usd USD or --raise-tokens N') });
    expect(await agentctl(['budget', 'run-1', '--raise-tokens', '1.5'], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--raise-tokens must be a whole number above 0') });
  });
});
