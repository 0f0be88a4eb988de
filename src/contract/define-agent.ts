import type { z } from 'zod';
import { AgentDefinitionSchema, type AgentDefinitionInput } from './agent-definition';
import { describeZodError } from './describe-zod-error';
import { AgentDefinitionError } from './errors';

/**
 * The type of what an agent's runs return in `result().output`: its zod `outputSchema`'s output, or
 * `unknown` for an agent without one (or with a JSON Schema from a configuration file).
 */
export type AgentOutput<A> = A extends { outputSchema: infer S } ? (S extends z.ZodType ? z.output<S> : unknown) : unknown;

/**
 * Defines an agent in code and checks it at once: a bad field throws AgentDefinitionError here, at the
 * line that wrote it, not when a worker starts. The definition comes back as written, with its literal
 * types kept (`modelTier: 'balanced'` needs no `as const`), so `AgentClient.start(agent, …)` knows the
 * type of its runs' `output` from the agent's zod `outputSchema`.
 */
export function defineAgent<const A extends AgentDefinitionInput>(definition: A): A {
  const parsed = AgentDefinitionSchema.safeParse(definition);
  if (!parsed.success) {
    const label = typeof definition.name === 'string' && definition.name ? definition.name : '(unnamed)';
    throw new AgentDefinitionError(`Agent "${label}" is invalid:\n${describeZodError(parsed.error)}`);
  }
  return definition;
}
