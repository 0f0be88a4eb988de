import { controlToolsFor } from '../../control-tools';
import type { ResolvedAgent } from './run-state';

/**
 * The names of the tools the workflow handles itself for this agent: its completion tools (only
 * `complete_task` unless its definition says otherwise) and the other control tools, in the order
 * the model sees them.
 */
export function controlToolNamesOf(agent: Pick<ResolvedAgent, 'completionTools'>): string[] {
  return controlToolsFor(agent.completionTools).map((t) => t.name);
}
