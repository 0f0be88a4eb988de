import { catalogOf, type AgentCatalog } from '../agents/agent-catalog';
import { builtinTools } from '../tools/builtin';
import type { ActivityDeps } from './activity-deps';

const BUILTIN_TOOLS: ReadonlySet<string> = new Set(builtinTools.map((t) => t.name));

/** The agents this worker serves, with their tools and the state of its MCP servers (`agentctl agents`). */
export function createDescribeAgents(deps: ActivityDeps) {
  return async function describeAgents(): Promise<AgentCatalog> {
    return catalogOf(deps.registry, {
      taskQueue: deps.taskQueue,
      configFile: deps.configFile,
      builtinTools: BUILTIN_TOOLS,
      mcpServers: deps.mcp?.snapshot() ?? [],
    });
  };
}
