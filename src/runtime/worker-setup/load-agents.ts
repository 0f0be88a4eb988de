import type { AgentDefinitionInput } from '../../contract/agent-definition';
import { createAgentRegistry, type AgentRegistry } from '../agents/agent-registry';
import { builtinAgents } from '../agents/builtin-agents';
import { validateCommandPatterns } from '../agents/validate-patterns';
import { checkToolReferences, loadAgentConfig, type LoadedAgentConfig } from '../config/load-agent-config';
import { AgentConfigError, AgentDefinitionError } from '../../contract/errors';
import { McpPool } from '../mcp/mcp-pool';
import type { McpHost } from '../mcp/mcp-sandbox';
import type { McpServersConfig } from '../mcp/mcp-server-config';
import { mcpTools } from '../mcp/mcp-tools';
import { builtinTools } from '../tools/builtin';
import type { Tool } from '../tools/tool-definition';
import { checkUserTools } from '../tools/check-user-tools';

export interface WorkerAgents {
  registry: AgentRegistry;
  /** The MCP connections of the configuration (empty without one); closed with the worker. */
  mcp: McpPool;
  /** The configuration file the agents came from, if any. */
  configFile?: string;
}

export interface LoadAgentsOptions {
  /** Agents defined in code; with a configuration file they are served besides the file's. */
  agents?: AgentDefinitionInput[];
  tools?: Tool[];
  /** The configuration file (`AGENT_CONFIG`), if any. */
  configFile?: string;
  env: NodeJS.ProcessEnv;
  /** The sandbox stdio MCP servers run in: the one tool commands get, with the workspace. */
  mcpHost: McpHost;
  /** Changes the configuration's MCP servers before they start (the replay lab points them at its own folder). */
  mcpServers?: (servers: McpServersConfig) => McpServersConfig;
}

function agentsToServe(config: LoadedAgentConfig | undefined, own: AgentDefinitionInput[] | undefined): AgentDefinitionInput[] {
  if (!config) return own ?? builtinAgents;
  return [...(config.includeBuiltinAgents ? builtinAgents : []), ...config.agents, ...(own ?? [])];
}

/**
 * The agents a worker serves and their tools: built-in agents by default; with a configuration file,
 * its agents and MCP servers (started here, their tool lists read once). Every definition is checked
 * before the worker connects to Temporal; a problem in the file is reported with the file's name.
 */
export async function loadWorkerAgents(options: LoadAgentsOptions): Promise<WorkerAgents> {
  // The user's tools first: a bad one is reported by its name before any file is read or server started.
  checkUserTools(builtinTools, options.tools ?? []);
  const config = options.configFile ? loadAgentConfig(options.configFile) : undefined;
  const warn = (message: string) => console.warn(`WARNING: ${message}`);
  const servers = config && options.mcpServers ? options.mcpServers(config.mcpServers) : config?.mcpServers;
  const mcp = servers && Object.keys(servers).length > 0 ? await McpPool.start(servers, options.env, options.mcpHost, warn) : McpPool.empty();
  try {
    const tools = [...builtinTools, ...(options.tools ?? []), ...mcpTools(mcp, warn)];
    if (config) checkToolReferences(config, tools.map((t) => t.name));
    const registry = createAgentRegistry(agentsToServe(config, options.agents), tools, { mcpServers: config ? Object.keys(config.mcpServers) : [] });
    await validateCommandPatterns(registry);
    return { registry, mcp, configFile: config?.file };
  } catch (error) {
    await mcp.close();
    if (config && error instanceof AgentDefinitionError) throw new AgentConfigError(`${config.file}: ${error.message}`);
    throw error;
  }
}
