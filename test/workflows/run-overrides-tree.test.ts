// A run's own `model` and `effort` (run input, `agentctl run --model/--effort`) win over its agent's,
// and hold for its whole tree: every sub-agent's run, and their sub-agents' runs, get them too.
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';

const base = { modelTier: 'balanced' as const, tools: [] as string[], maxIterations: 10, maxTokens: 4_096, delegation: { maxDepth: 3, maxPerTurn: 4 } };
const lead: AgentDefinitionInput = { ...base, name: 'lead', description: 'Leads.', systemPrompt: 'Delegate.', model: 'claude-opus-4-8', effort: 'high', subAgents: ['middle'] };
const middle: AgentDefinitionInput = { ...base, name: 'middle', description: 'Passes work on.', systemPrompt: 'Delegate.', model: 'claude-haiku-5-5', subAgents: ['leaf'] };
const leaf: AgentDefinitionInput = { ...base, name: 'leaf', description: 'Does the work.', systemPrompt: 'Work.', effort: 'medium' };

const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

describe("a run's model and effort", () => {
  const bed = useAgentTestbed();

  function scriptTree(prefix: string) {
    const tasks = { lead: `${prefix}: lead`, middle: `${prefix}: middle part`, leaf: `${prefix}: leaf part` };
    bed.fake.script(tasks.lead, [reply(toolCall('delegate_task', { agent: 'middle', task: tasks.middle })), done('lead done')]);
    bed.fake.script(tasks.middle, [reply(toolCall('delegate_task', { agent: 'leaf', task: tasks.leaf })), done('middle done')]);
    bed.fake.script(tasks.leaf, [done('leaf done')]);
    return tasks;
  }

  it('hold for the whole tree of sub-agents: the sub-agent and its own sub-agent ask with the run\'s model and effort', async () => {
    const tasks = scriptTree('Overrides drill');
    await withAgentWorker({ ...bed.harness(), agents: [lead, middle, leaf] }, async ({ start }) => {
      const handle = await start({ agent: 'lead', task: tasks.lead, model: 'claude-sonnet-4-6', effort: 'low' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    for (const task of Object.values(tasks)) {
      const requests = bed.fake.requestsFor(task);
      expect(requests.length, task).toBeGreaterThan(0);
      for (const { wire } of requests) expect(wire, task).toMatchObject({ model: 'claude-sonnet-4-6', output_config: { effort: 'low' } });
    }
  });

  it("leave each sub-agent its own model and effort when the run sets none", async () => {
    const tasks = scriptTree('No overrides drill');
    await withAgentWorker({ ...bed.harness(), agents: [lead, middle, leaf] }, async ({ start }) => {
      expect(await (await start({ agent: 'lead', task: tasks.lead })).result()).toMatchObject({ status: 'completed' });
    });
    expect(bed.fake.requestsFor(tasks.lead)[0]!.wire).toMatchObject({ model: 'claude-opus-4-8', output_config: { effort: 'high' } });
    expect(bed.fake.requestsFor(tasks.middle)[0]!.wire).toMatchObject({ model: 'claude-haiku-5-5' });
    expect(bed.fake.requestsFor(tasks.middle)[0]!.wire).not.toHaveProperty('output_config');
    expect(bed.fake.requestsFor(tasks.leaf)[0]!.wire).toMatchObject({ output_config: { effort: 'medium' } });
  });
});
