// agentctl with teams and threads: pending lists a sub-agent's call under its root, approve at the
// root reaches it; send follows a thread's next turn; close ends it.
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { agentctl } from './agentctl-process';
import { waitForApprovals, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';

const general = builtinAgents.find((a) => a.name === 'general')!;
const lead: AgentDefinitionInput = { ...general, name: 'lead', description: 'Delegates.', subAgents: ['general'] };
const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

describe('agentctl for teams and threads', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('lists a sub-agent\'s waiting call under the root run, and approves it there', async () => {
    const [task, sub] = [uniqueId('cli-team'), uniqueId('cli-sub')];
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'general', task: sub })), done('lead done')]);
    fake.script(sub, [reply(toolCall('write_file', { path: 'x.txt', content: 'x' })), done('sub done')]);
    await withAgentWorker({ ...bed.harness(), agents: [lead, general] }, async ({ start, taskQueue }) => {
      const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue };
      const root = await start({ agent: 'lead', task });
      await waitForApprovals(root, 1, 30_000);
      const pending = await agentctl(['pending', '--json'], env);
      const runs = JSON.parse(pending.stdout) as { workflowId: string; status?: { pendingApprovals: { workflowId: string }[] } }[];
      const mine = runs.filter((r) => r.workflowId.startsWith(root.workflowId));
      expect(mine.map((r) => r.workflowId)).toEqual([root.workflowId]);
      expect(mine[0]!.status!.pendingApprovals[0]!.workflowId).toBe(`${root.workflowId}/sub-toolu_0_0`);
      const approved = await agentctl(['approve', root.workflowId, '--approver', 'ana'], env);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toContain(`applied by ${root.workflowId}/sub-toolu_0_0`);
      expect((await root.result()).completion?.summary).toBe('lead done');
    });
  });

  it('sends a follow-up to a thread and follows the answer; close ends it with every completion', async () => {
    const task = uniqueId('cli-thread');
    fake.script(task, [done('first'), done('second')]);
    await withAgentWorker(bed.harness(), async ({ start, taskQueue }) => {
      const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue };
      const handle = await start({ agent: 'general', task, followUps: true });
      await waitForPhase(handle, 'idle', 30_000);
      const sent = await agentctl(['send', handle.workflowId, 'and', 'then?'], env);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toContain('✅ success: second');
      const closed = await agentctl(['close', handle.workflowId], env);
      expect(closed).toMatchObject({ code: 0, stdout: expect.stringContaining('thread closed') });
      expect((await handle.result()).completions?.map((c) => c.summary)).toEqual(['first', 'second']);
      const refused = await agentctl(['send', handle.workflowId, 'too late'], env);
      expect(refused.code).not.toBe(0);
    });
  });
});
