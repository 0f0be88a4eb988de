// createAgentWorker's settings come from its `env` option, not from the process environment.
import { describe, expect, it, vi } from 'vitest';
import type { AgentDefinitionInput } from '../../src/agents/agent-definition';
import { builtinAgents } from '../../src/agents/builtin-agents';
import type { ModelTier } from '../../src/model/model-tiers';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const tierAgent = (tier: ModelTier): AgentDefinitionInput => ({
  name: `tier-${tier}`,
  description: `An agent on the ${tier} tier.`,
  modelTier: tier,
  tools: [],
  systemPrompt: 'You finish at once.',
  maxIterations: 2,
});
const TIERS: ModelTier[] = ['fast', 'balanced', 'powerful'];

describe('createAgentWorker({ env })', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, ...TIERS.map(tierAgent)] });
  const fake = bed.fake;

  it('calls the model each AGENT_MODEL_* in its env names, although the process environment says otherwise', async () => {
    // The process environment carries different overrides: a worker reading it instead of its
    // options would send these ids.
    vi.stubEnv('AGENT_MODEL_FAST', 'process-fast');
    vi.stubEnv('AGENT_MODEL_BALANCED', 'process-balanced');
    vi.stubEnv('AGENT_MODEL_POWERFUL', 'process-powerful');
    const env = { AGENT_MODEL_FAST: 'option-fast', AGENT_MODEL_BALANCED: 'option-balanced', AGENT_MODEL_POWERFUL: 'option-powerful' };
    const tasks = Object.fromEntries(TIERS.map((tier) => [tier, uniqueId(`tier-${tier}`)])) as Record<ModelTier, string>;
    for (const tier of TIERS) fake.script(tasks[tier], [reply(toolCall('complete_task', { summary: tier, status: 'success' }))]);
    try {
      await withAgentWorker({ ...bed.harness(), env }, async ({ start }) => {
        for (const tier of TIERS) expect((await (await start({ agent: `tier-${tier}`, task: tasks[tier] })).result()).status).toBe('completed');
      });
    } finally {
      vi.unstubAllEnvs();
    }
    for (const tier of TIERS) expect(fake.requestsFor(tasks[tier]).map((r) => r.body.model)).toEqual([`option-${tier}`]);
  });
});
