import { delegateTask, handoff } from '../../contract/control-tools';
import { toInputJsonSchema } from '../tools/tool-definition';
import type { ModelToolSpec } from './agent-registry';

export interface TeamOffer {
  /** Sub-agents the run may delegate to, with what they do. */
  subAgents: { name: string; description: string }[];
  handoffs: { name: string; description: string }[];
  /** Delegation limits, told to the model in the tool's description. */
  limits: { depth: number; maxDepth: number; maxPerTurn: number };
}

const list = (agents: { name: string; description: string }[]) => agents.map((a) => `- ${a.name}: ${a.description}`).join('\n');

/**
 * `delegate_task` and `handoff` as the model sees them for this run: only when there is someone to
 * delegate or hand off to, with the targets (and the delegation limits) in the description and the
 * agent names as an enum, so the model cannot name anyone else.
 */
export function teamToolSpecs(offer: TeamOffer): ModelToolSpec[] {
  const specs: ModelToolSpec[] = [];
  const canDelegate = offer.subAgents.length > 0 && offer.limits.depth < offer.limits.maxDepth;
  if (canDelegate) {
    const schema = toInputJsonSchema(delegateTask.inputSchema) as { properties: Record<string, Record<string, unknown>> };
    schema.properties.agent = { ...schema.properties.agent, enum: offer.subAgents.map((a) => a.name) };
    specs.push({
      name: delegateTask.name,
      description:
        `${delegateTask.description}\nSub-agents:\n${list(offer.subAgents)}\n` +
        `Limits: at most ${offer.limits.maxPerTurn} delegations per turn; sub-agents nest at most ${offer.limits.maxDepth} level(s) deep (this run is at level ${offer.limits.depth}).`,
      input_schema: schema,
    });
  }
  if (offer.handoffs.length > 0) {
    const schema = toInputJsonSchema(handoff.inputSchema) as { properties: Record<string, Record<string, unknown>> };
    schema.properties.agent = { ...schema.properties.agent, enum: offer.handoffs.map((a) => a.name) };
    specs.push({ name: handoff.name, description: `${handoff.description}\nAgents:\n${list(offer.handoffs)}`, input_schema: schema });
  }
  return specs;
}
