// A sub-agent's question reaches the root run, and a reply sent there is forwarded to the child that
// asked: real server, a coordinator that delegates, and the fake model.
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { statusQuery, submitReplyUpdate } from '../../src/contract/agent-run-api';
import { toolResultsIn, waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const general = builtinAgents.find((a) => a.name === 'general')!;
const specialist: AgentDefinitionInput = { ...general, name: 'specialist', description: 'Runs commands in the workspace.', modelTier: 'fast' };
const coordinator: AgentDefinitionInput = {
  ...general,
  name: 'coordinator',
  description: 'Splits work between specialists.',
  tools: ['read_file'],
  subAgents: ['specialist'],
};
const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

describe('questions from sub-agents', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('forwards a reply sent to the root run to the sub-agent run that asked', async () => {
    const task = uniqueId('asks-via-child');
    const subTask = uniqueId('child-asks');
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'specialist', task: subTask })), done('root done')]);
    fake.script(subTask, [reply(toolCall('need_more_information', { question: 'Which branch?' })), done('child got its answer')]);
    await withAgentWorker({ ...bed.harness(), agents: [coordinator, specialist, general] }, async ({ start, client }) => {
      const root = await start({ agent: 'coordinator', task });
      const childId = `${root.workflowId}/sub-toolu_0_0`;
      const asking = await waitFor(async () => {
        const s = await root.query(statusQuery);
        return s.pendingQuestions.length > 0 ? s : undefined;
      }, 'the child question at the root', 30_000);
      expect(asking.pendingQuestion).toBeUndefined();
      expect(asking.pendingQuestions).toEqual([expect.objectContaining({ callId: 'toolu_0_0', question: 'Which branch?', workflowId: childId })]);

      const outcome = await root.executeUpdate(submitReplyUpdate, { args: [{ text: 'use main' }] });
      expect(outcome).toEqual({ applied: true, message: `reply forwarded to ${childId}, the sub-agent run that asked` });
      expect(await root.result()).toMatchObject({ status: 'completed', completion: { summary: 'root done' } });
      const child = await client.workflow.getHandle(childId).query(statusQuery);
      expect(child.pendingQuestion).toBeUndefined();
    });
    // The child's model heard the reply as the answer to its question; the root's model never did.
    expect(toolResultsIn(fake.requestsFor(subTask)[1])).toEqual([expect.objectContaining({ tool_use_id: 'toolu_0_0', content: 'The user replied: use main' })]);
    expect(JSON.stringify(fake.requestsFor(task)[1]?.body.messages)).not.toContain('The user replied');
  });
});
