import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import type { ResolvedAgent } from '../agents/resolved-agent';
import { FailureType } from '../errors';
import type { ActivityDeps } from './activity-deps';

export const ResolveAgentInputSchema = z.object({ agent: z.string() });
export type ResolveAgentInput = z.infer<typeof ResolveAgentInputSchema>;

/** Hands the workflow what it needs about an agent; an unknown name ends the run at once. */
export function createResolveAgent(deps: ActivityDeps) {
  return async function resolveAgent(raw: ResolveAgentInput): Promise<ResolvedAgent> {
    const { agent: name } = ResolveAgentInputSchema.parse(raw);
    const agent = deps.registry.agents.get(name);
    if (!agent) {
      const known = [...deps.registry.agents.keys()].join(', ');
      throw ApplicationFailure.create({
        type: FailureType.UnknownAgent,
        nonRetryable: true,
        message: `Unknown agent "${name}". Agents on this worker: ${known}.`,
        details: [{ known: [...deps.registry.agents.keys()] }],
      });
    }
    return {
      name: agent.name,
      description: agent.description,
      modelTier: agent.modelTier,
      maxIterations: agent.maxIterations,
      tools: deps.registry.scopes(agent.name),
      approval: agent.approval,
      context: agent.context,
    };
  };
}
