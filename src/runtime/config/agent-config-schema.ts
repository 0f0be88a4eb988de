import { z } from 'zod';
import { AgentDefinitionSchema } from '../../contract/agent-definition';
import { McpServersSchema } from '../mcp/mcp-server-config';
import { JsonSchemaObjectSchema } from '../../contract/output-check';

/**
 * One agent in a configuration file: the fields of an agent defined in code (tools, tool rules as
 * `approval`, `approvers`, `workspace`, `completionTools`, ...), plus the MCP servers whose tools it
 * gets, with its output schema as JSON Schema. Unknown keys are refused, so a misspelt field is
 * reported instead of silently ignored.
 */
export const ConfigAgentSchema = AgentDefinitionSchema.extend({
  outputSchema: JsonSchemaObjectSchema.optional(),
}).strict();

/** The file `AGENT_CONFIG` names (YAML or JSON). */
export const AgentConfigFileSchema = z
  .object({
    /** Serve the built-in agents (general, reader) besides the file's own. */
    includeBuiltinAgents: z.boolean().default(false),
    /** MCP servers by name; agents use their tools with `mcpServers: [name]` or `tools: [mcp__<name>__<tool>]`. */
    mcpServers: McpServersSchema.default({}),
    agents: z.array(ConfigAgentSchema).default([]),
  })
  .strict();
export type AgentConfigFile = z.output<typeof AgentConfigFileSchema>;

/** Keys a person may have meant, for "did you mean" hints on unknown keys. */
export const KNOWN_KEYS = {
  file: Object.keys(AgentConfigFileSchema.shape),
  agent: Object.keys(ConfigAgentSchema.shape),
} as const;
