// createAgentWorker's settings come from its `env` option, not from the process environment.
import { describe, expect, it, vi } from 'vitest';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import type { ModelTier } from '../../../src/contract/model-tiers';
import { z } from 'zod';
import { defineTool } from '../../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../../src/contract/tool-result';
import { toolResultsIn, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

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

/** A tool that reports what two worker variables look like to the processes it starts. */
const envProbeTool = defineTool({
  name: 'env_probe',
  description: 'Prints two environment variables.',
  scope: 'read',
  idempotent: true,
  inputSchema: z.object({}),
  async execute(_input, ctx) {
    const ran = await ctx.processes.run({
      command: 'printf "listed=%s hidden=%s" "$DA_PROBE_LISTED" "$DA_PROBE_HIDDEN"',
      workspace: ctx.workspaceRoot,
      timeoutMs: 10_000,
      signal: ctx.signal,
      outputLimit: 1_000,
    });
    return ToolResult.success(ran.output);
  },
});

describe('createAgentWorker({ env }) with AGENT_TOOL_ENV', () => {
  const prober: AgentDefinitionInput = { name: 'prober', description: 'Probes.', modelTier: 'balanced', tools: ['env_probe'], systemPrompt: 'You probe.', maxIterations: 3 };
  const bed = useAgentTestbed({ agents: [prober], tools: [envProbeTool] });

  it('lets tool processes see the worker variables AGENT_TOOL_ENV names, and no others', async () => {
    const task = uniqueId('tool-env');
    bed.fake.script(task, [reply(toolCall('env_probe', {})), reply(toolCall('complete_task', { summary: 'probed', status: 'success' }))]);
    vi.stubEnv('DA_PROBE_LISTED', 'visible');
    vi.stubEnv('DA_PROBE_HIDDEN', 'secret');
    try {
      const result = await withAgentWorker({ ...bed.harness(), env: { AGENT_TOOL_ENV: 'DA_PROBE_LISTED' } }, async ({ start }) => (await start({ agent: 'prober', task })).result());
      expect(result.status).toBe('completed');
    } finally {
      vi.unstubAllEnvs();
    }
    const [probe] = toolResultsIn(bed.fake.requestsFor(task)[1]);
    expect(probe!.content).toBe('listed=visible hidden=');
  });
});
