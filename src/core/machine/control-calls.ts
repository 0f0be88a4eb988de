import { controlToolsFor, teamTools } from '../../contract/control-tools';
import type { ResolvedAgent } from '../../contract/resolved-agent';

/**
 * The names of the tools the workflow handles itself for this agent: its completion tools (only
 * `complete_task` unless its definition says otherwise), the other control tools, in the order the
 * model sees them, and delegate_task and handoff (offered only to runs with a team).
 */
export function controlToolNamesOf(agent: Pick<ResolvedAgent, 'completionTools'>): string[] {
  return [...controlToolsFor(agent.completionTools), ...teamTools].map((t) => t.name);
}
