import { z } from 'zod';
import { controlToolsFor, reservedToolNames } from '../../contract/control-tools';
import { AgentDefinitionError } from '../../contract/errors';
import { mcpServerPrefix } from '../mcp/mcp-tools';
import { nexusTargetsOf, type NexusTargets } from '../../contract/nexus-tool';
import { nexusToolsOf } from './nexus-tools';
import { outputContractOf } from '../../core/structured-output/output-contract';
import type { ResolvedTool } from '../../contract/resolved-agent';
import type { Tool } from '../tools/tool-definition';
import { describeZodError, toInputJsonSchema } from '../tools/tool-definition';
import { modelOptionProblems } from '../../contract/model-options';
import { AgentDefinitionSchema, type AgentDefinition, type AgentDefinitionInput } from '../../contract/agent-definition';

/** A tool as the Messages API wants it. */
export interface ModelToolSpec {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface AgentRegistry {
  /** The agents, each with its tool list complete: the tools of the MCP servers it names are in it. */
  agents: ReadonlyMap<string, AgentDefinition>;
  tools: ReadonlyMap<string, Tool>;
  /** The tool specs (agent tools, then control tools) sent with each model call, built once. */
  modelTools(agent: string): ModelToolSpec[];
  /** What the workflow needs to know of each of the agent's tools. */
  toolInfo(agent: string): Record<string, ResolvedTool>;
  /** The agent's Nexus tools by name: where the workflow starts each one's operation. */
  nexusTargets(agent: string): NexusTargets;
  /** One of the agent's Nexus tools by the name the model calls it, with its input schema (to check arguments). */
  nexusTool(agent: string, name: string): Tool | undefined;
}

export interface RegistryOptions {
  /** The MCP servers the worker connected to; an agent may name them in `mcpServers`. */
  mcpServers?: readonly string[];
}

function checkTools(tools: readonly Tool[]): Map<string, Tool> {
  const toolMap = new Map<string, Tool>();
  for (const tool of tools) {
    if (toolMap.has(tool.name)) throw new AgentDefinitionError(`Two tools are named "${tool.name}"; tool names must be unique.`);
    if (reservedToolNames.has(tool.name)) {
      throw new AgentDefinitionError(`Tool name "${tool.name}" is reserved for the runtime's control tool.`);
    }
    if (!(tool.inputSchema instanceof z.ZodObject)) {
      throw new AgentDefinitionError(`Tool "${tool.name}" must have a z.object input schema.`);
    }
    toolMap.set(tool.name, tool);
  }
  return toolMap;
}

/** The agent with its tool list complete: its own tools, then every tool of each MCP server it names. */
function withServerTools(agent: AgentDefinition, toolMap: ReadonlyMap<string, Tool>, servers: readonly string[]): AgentDefinition {
  const seen = new Set<string>();
  for (const name of agent.tools) {
    if (seen.has(name)) throw new AgentDefinitionError(`Agent "${agent.name}" lists tool "${name}" twice.`);
    seen.add(name);
    if (reservedToolNames.has(name)) continue;
    if (!toolMap.has(name)) {
      throw new AgentDefinitionError(
        `Agent "${agent.name}" uses unknown tool "${name}". Known tools: ${[...toolMap.keys()].join(', ')}. ` +
          `Define "${name}" with defineTool and pass it in createAgentWorker({ tools }), or remove it from the agent's tools.`,
      );
    }
  }
  const tools = [...agent.tools];
  for (const server of agent.mcpServers) {
    if (!servers.includes(server)) {
      const known = servers.length > 0 ? `Configured servers: ${servers.join(', ')}.` : 'The worker has no MCP servers configured (mcpServers).';
      throw new AgentDefinitionError(`Agent "${agent.name}" uses unknown MCP server "${server}". ${known}`);
    }
    for (const name of toolMap.keys()) if (name.startsWith(mcpServerPrefix(server)) && !seen.has(name)) tools.push(name);
  }
  const problems = modelOptionProblems({ ...agent, toolNames: tools });
  if (problems.length > 0) throw new AgentDefinitionError(`Agent "${agent.name}" is invalid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  if (agent.outputSchema !== undefined) {
    try {
      outputContractOf(agent.outputSchema, `The outputSchema of agent "${agent.name}"`);
    } catch (error) {
      throw new AgentDefinitionError((error as Error).message);
    }
  }
  return { ...agent, tools };
}

/**
 * Checks every agent and tool once, when the worker starts: an unknown or duplicate tool name, a
 * clash with a control tool, an unknown MCP server or an invalid definition throws
 * `AgentDefinitionError`, so a broken deployment never starts polling.
 */
export function createAgentRegistry(definitions: AgentDefinitionInput[], tools: readonly Tool[], options: RegistryOptions = {}): AgentRegistry {
  const toolMap = checkTools(tools);
  const agents = new Map<string, AgentDefinition>();
  for (const raw of definitions) {
    const parsed = AgentDefinitionSchema.safeParse(raw);
    const label = typeof raw?.name === 'string' ? raw.name : '(unnamed)';
    if (!parsed.success) throw new AgentDefinitionError(`Agent "${label}" is invalid:\n${describeZodError(parsed.error)}`);
    if (agents.has(parsed.data.name)) throw new AgentDefinitionError(`Two agents are named "${parsed.data.name}".`);
    agents.set(parsed.data.name, withServerTools(parsed.data, toolMap, options.mcpServers ?? []));
  }

  const specCache = new Map<string, ModelToolSpec[]>();
  const nexusTools = new Map<string, Tool[]>();
  for (const agent of agents.values()) {
    nexusTools.set(agent.name, nexusToolsOf(agent));
    const own = agent.tools
      .filter((name) => !reservedToolNames.has(name))
      .map((name) => toolMap.get(name) as Tool)
      .concat(nexusTools.get(agent.name) ?? [])
      .map((t) => ({ name: t.name, description: t.description, input_schema: t.jsonSchema }));
    const control = controlToolsFor(agent.completionTools).map((t) => ({ name: t.name, description: t.description, input_schema: toInputJsonSchema(t.inputSchema) }));
    specCache.set(agent.name, [...own, ...control]);
  }

  const toolsOf = (agentName: string) => [...(agents.get(agentName)?.tools ?? []).flatMap((name) => toolMap.get(name) ?? []), ...(nexusTools.get(agentName) ?? [])];
  return {
    agents,
    tools: toolMap,
    modelTools: (agent) => specCache.get(agent) ?? [],
    nexusTargets: (agent) => nexusTargetsOf(agents.get(agent)?.nexusTools ?? []),
    nexusTool: (agent, name) => nexusTools.get(agent)?.find((tool) => tool.name === name),
    toolInfo: (agentName) =>
      Object.fromEntries(
        toolsOf(agentName).map((tool) => [
          tool.name,
          {
            scope: tool.scope,
            idempotent: tool.idempotent ?? tool.scope === 'read',
            quick: tool.quick ?? (tool.scope === 'read' && tool.timeoutSeconds === undefined),
            subjectArgument: tool.subjectArgument,
            timeoutSeconds: tool.timeoutSeconds,
          },
        ]),
      ),
  };
}
