import { z } from 'zod';
import { controlToolNames, controlTools } from '../control-tools';
import { AgentDefinitionError } from '../errors';
import type { ToolScope } from '../tools/tool-scope';
import type { ResolvedTool } from '../workflows/run-machine/run-state';
import type { Tool } from '../tools/tool-definition';
import { describeZodError, toInputJsonSchema } from '../tools/tool-definition';
import { AgentDefinitionSchema, type AgentDefinition, type AgentDefinitionInput } from './agent-definition';

/** A tool as the Messages API wants it. */
export interface ModelToolSpec {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface AgentRegistry {
  agents: ReadonlyMap<string, AgentDefinition>;
  tools: ReadonlyMap<string, Tool>;
  /** The tool specs (agent tools, then control tools) sent with each model call, built once. */
  modelTools(agent: string): ModelToolSpec[];
  scopes(agent: string): Record<string, ToolScope>;
  /** What the workflow needs to know of each of the agent's tools. */
  toolInfo(agent: string): Record<string, ResolvedTool>;
}

/**
 * Checks every agent and tool once, when the worker starts: an unknown or duplicate tool name, a
 * clash with a control tool or an invalid definition throws `AgentDefinitionError`, so a broken
 * deployment never starts polling.
 */
export function createAgentRegistry(definitions: AgentDefinitionInput[], tools: readonly Tool[]): AgentRegistry {
  const toolMap = new Map<string, Tool>();
  for (const tool of tools) {
    if (toolMap.has(tool.name)) throw new AgentDefinitionError(`Two tools are named "${tool.name}"; tool names must be unique.`);
    if (controlToolNames.has(tool.name)) {
      throw new AgentDefinitionError(`Tool name "${tool.name}" is reserved for the runtime's control tool.`);
    }
    if (!(tool.inputSchema instanceof z.ZodObject)) {
      throw new AgentDefinitionError(`Tool "${tool.name}" must have a z.object input schema.`);
    }
    toolMap.set(tool.name, tool);
  }

  const agents = new Map<string, AgentDefinition>();
  for (const raw of definitions) {
    const parsed = AgentDefinitionSchema.safeParse(raw);
    const label = typeof raw?.name === 'string' ? raw.name : '(unnamed)';
    if (!parsed.success) throw new AgentDefinitionError(`Agent "${label}" is invalid:\n${describeZodError(parsed.error)}`);
    const agent = parsed.data;
    if (agents.has(agent.name)) throw new AgentDefinitionError(`Two agents are named "${agent.name}".`);
    const seen = new Set<string>();
    for (const name of agent.tools) {
      if (seen.has(name)) throw new AgentDefinitionError(`Agent "${agent.name}" lists tool "${name}" twice.`);
      seen.add(name);
      if (controlToolNames.has(name)) continue;
      if (!toolMap.has(name)) {
        throw new AgentDefinitionError(
          `Agent "${agent.name}" uses unknown tool "${name}". Known tools: ${[...toolMap.keys()].join(', ')}.`,
        );
      }
    }
    agents.set(agent.name, agent);
  }

  const controlSpecs: ModelToolSpec[] = controlTools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: toInputJsonSchema(t.inputSchema),
  }));
  const specCache = new Map<string, ModelToolSpec[]>();
  for (const agent of agents.values()) {
    const own = agent.tools
      .filter((name) => !controlToolNames.has(name))
      .map((name) => toolMap.get(name) as Tool)
      .map((t) => ({ name: t.name, description: t.description, input_schema: t.jsonSchema }));
    specCache.set(agent.name, [...own, ...controlSpecs]);
  }

  return {
    agents,
    tools: toolMap,
    modelTools: (agent) => specCache.get(agent) ?? [],
    toolInfo: (agentName) => {
      const out: Record<string, ResolvedTool> = {};
      for (const name of agents.get(agentName)?.tools ?? []) {
        const tool = toolMap.get(name);
        if (tool) out[name] = { scope: tool.scope, idempotent: tool.idempotent ?? tool.scope === 'read', subjectArgument: tool.subjectArgument, timeoutSeconds: tool.timeoutSeconds };
      }
      return out;
    },
    scopes: (agentName) => {
      const agent = agents.get(agentName);
      const out: Record<string, ToolScope> = {};
      for (const name of agent?.tools ?? []) {
        const tool = toolMap.get(name);
        if (tool) out[name] = tool.scope;
      }
      return out;
    },
  };
}
