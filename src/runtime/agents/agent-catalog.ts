import type { McpServerSnapshot } from '../mcp/mcp-pool';
import type { ToolScope } from '../../contract/tool-scope';
import type { AgentRegistry } from './agent-registry';

/** One tool of an agent, as `agentctl agents` lists it. */
export interface CatalogTool {
  name: string;
  scope: ToolScope;
  idempotent: boolean;
  /** Where it comes from: the runtime, an MCP server, or code given to `createAgentWorker`. */
  source: 'builtin' | 'mcp' | 'custom';
  description: string;
}

export interface CatalogAgent {
  name: string;
  description: string;
  modelTier: string;
  maxIterations: number;
  workspace: string;
  approvers?: string[];
  completionTools: string[];
  /** The agent returns a typed result (it has an output schema). */
  typedOutput: boolean;
  mcpServers: string[];
  tools: CatalogTool[];
}

/** What a worker serves: the answer of the `agentCatalog` workflow. */
export interface AgentCatalog {
  taskQueue: string;
  /** The configuration file the agents came from (AGENT_CONFIG), if any. */
  configFile?: string;
  agents: CatalogAgent[];
  mcpServers: McpServerSnapshot[];
}

export function catalogOf(
  registry: AgentRegistry,
  facts: { taskQueue: string; configFile?: string; builtinTools: ReadonlySet<string>; mcpServers: McpServerSnapshot[] },
): AgentCatalog {
  const agents = [...registry.agents.values()].map((agent) => ({
    name: agent.name,
    description: agent.description,
    modelTier: agent.modelTier,
    maxIterations: agent.maxIterations,
    workspace: agent.workspace,
    ...(agent.approvers ? { approvers: agent.approvers } : {}),
    completionTools: agent.completionTools,
    typedOutput: agent.outputSchema !== undefined,
    mcpServers: agent.mcpServers,
    tools: agent.tools.flatMap((name) => {
      const tool = registry.tools.get(name);
      if (!tool) return [];
      const source: CatalogTool['source'] = name.startsWith('mcp__') ? 'mcp' : facts.builtinTools.has(name) ? 'builtin' : 'custom';
      return [{ name, scope: tool.scope, idempotent: tool.idempotent ?? tool.scope === 'read', source, description: tool.description }];
    }),
  }));
  return { taskQueue: facts.taskQueue, ...(facts.configFile ? { configFile: facts.configFile } : {}), agents, mcpServers: facts.mcpServers };
}
