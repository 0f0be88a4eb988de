// defineAgent: a definition checked where it is written, its literal types kept, and the type of its
// runs' output carried to the typed client's handle from the agent's zod outputSchema.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentRunHandle } from '../../src/client/agent-run-handle';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { defineAgent, type AgentOutput } from '../../src/contract/define-agent';
import { AgentDefinitionError } from '../../src/contract/errors';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const bed = useAgentTestbed();

const triage = defineAgent({
  name: 'triage',
  description: 'Sorts a ticket.',
  modelTier: 'fast',
  tools: [],
  systemPrompt: 'Sort the ticket.',
  maxIterations: 3,
  outputSchema: z.object({ queue: z.enum(['billing', 'tech']), priority: z.number().int() }),
});

describe('defineAgent', () => {
  it('keeps the literal types, so a standalone definition needs no `as const`', () => {
    expectTypeOf(triage.modelTier).toEqualTypeOf<'fast'>();
    const agents: AgentDefinitionInput[] = [triage];
    expect(agents).toHaveLength(1);
  });

  it('types the output of its runs from the zod outputSchema, and leaves it unknown without one', () => {
    expectTypeOf<AgentOutput<typeof triage>>().toEqualTypeOf<{ queue: 'billing' | 'tech'; priority: number }>();
    const plain = defineAgent({ name: 'plain', description: 'd', modelTier: 'fast', tools: [], systemPrompt: 's', maxIterations: 1 });
    expectTypeOf<AgentOutput<typeof plain>>().toEqualTypeOf<unknown>();
    expect(plain.name).toBe('plain');
  });

  it('refuses a bad definition where it is written, naming the agent and the field', () => {
    expect(() => defineAgent({ name: 'Bad Name', description: 'd', modelTier: 'fast', tools: [], systemPrompt: 's', maxIterations: 0 })).toThrow(AgentDefinitionError);
    expect(() => defineAgent({ name: 'bad', description: 'd', modelTier: 'fast', tools: [], systemPrompt: 's', maxIterations: 0 })).toThrow(/Agent "bad" is invalid:\n- maxIterations: /);
  });

  it("gives AgentClient.start(agent, …) a handle whose result's output has the agent's type", async () => {
    const task = uniqueId('typed');
    bed.fake.script(task, [reply(toolCall('complete_task', { summary: 'sorted', status: 'success', output: { queue: 'tech', priority: 2 } }))]);
    await withAgentWorker({ ...bed.harness(), agents: [triage] }, async ({ client, taskQueue }) => {
      const agents = new AgentClient({ client, taskQueue });
      const run = await agents.start(triage, { task });
      expectTypeOf(run).toEqualTypeOf<AgentRunHandle<{ queue: 'billing' | 'tech'; priority: number }>>();
      const { output } = await run.result();
      expect(output).toEqual({ queue: 'tech', priority: 2 });
      expectTypeOf(output!.queue).toEqualTypeOf<'billing' | 'tech'>();
    });
  });
});
