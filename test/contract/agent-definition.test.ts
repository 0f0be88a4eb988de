// Each default of an agent definition is written once: the named constant the schema's fields use.
import { describe, expect, it } from 'vitest';
import { AgentDefinitionSchema, DEFAULT_CONTEXT_BUDGET, DEFAULT_DELEGATION_LIMITS } from '../../src/contract/agent-definition';

const minimal = { name: 'plain', description: 'A plain agent.', modelTier: 'balanced', tools: [], systemPrompt: 'Work.', maxIterations: 3 } as const;

describe('AgentDefinitionSchema defaults', () => {
  it('gives an agent without a context budget or delegation limits the named defaults', () => {
    const agent = AgentDefinitionSchema.parse(minimal);
    expect(agent.context).toEqual(DEFAULT_CONTEXT_BUDGET);
    expect(agent.delegation).toEqual(DEFAULT_DELEGATION_LIMITS);
    expect(DEFAULT_CONTEXT_BUDGET).toEqual({ windowTokens: 200_000, targetShare: 0.6, keepRecentTurns: 6 });
    expect(DEFAULT_DELEGATION_LIMITS).toEqual({ maxDepth: 2, maxPerTurn: 4 });
  });

  it('fills the fields a partial setting leaves out from the same defaults', () => {
    const agent = AgentDefinitionSchema.parse({ ...minimal, context: { windowTokens: 50_000 }, delegation: { maxDepth: 3 } });
    expect(agent.context).toEqual({ ...DEFAULT_CONTEXT_BUDGET, windowTokens: 50_000 });
    expect(agent.delegation).toEqual({ ...DEFAULT_DELEGATION_LIMITS, maxDepth: 3 });
  });

  it('hands each agent its own copy, so changing one agent\'s limits cannot change the defaults', () => {
    const agent = AgentDefinitionSchema.parse(minimal);
    agent.delegation.maxDepth = 9;
    expect(DEFAULT_DELEGATION_LIMITS.maxDepth).toBe(2);
    expect(AgentDefinitionSchema.parse(minimal).delegation.maxDepth).toBe(2);
  });
});
