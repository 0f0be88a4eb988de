import { z } from 'zod';
import { JsonSchemaObjectSchema } from './output-check';
import { ToolScopeSchema } from './tool-scope';

/** A tool name as the Messages API accepts it. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A Nexus operation the model may call as a tool (issue 36). The call goes through the approval
 * policy like any tool (its `scope` says what it may touch) and then runs from the workflow as a
 * Nexus operation on `endpoint`, so it is as durable as the run and cancelled with it.
 */
export const NexusToolSchema = z
  .object({
    /** The Nexus endpoint's name on the Temporal server (`temporal operator nexus endpoint create --name …`). */
    endpoint: z.string().min(1),
    service: z.string().min(1),
    operation: z.string().min(1),
    /** The tool's name for the model; absent means `<service>_<operation>` (other characters become `_`). */
    name: z.string().regex(TOOL_NAME, 'a tool name is 1-64 letters, digits, "_" or "-"').optional(),
    description: z.string().min(1),
    /** The operation's input as JSON Schema; it must describe an object (the Messages API takes only those). */
    inputSchema: JsonSchemaObjectSchema.refine((schema) => schema.type === 'object', 'inputSchema must be a JSON Schema of type "object"'),
    scope: ToolScopeSchema,
    /** How long the operation may take from its start, in seconds; absent means the server's maximum. */
    timeoutSeconds: z.number().positive().optional(),
  })
  .strict();
export type NexusTool = z.output<typeof NexusToolSchema>;
export type NexusToolInput = z.input<typeof NexusToolSchema>;

/** The name the model calls a Nexus tool by. */
export function nexusToolName(tool: Pick<NexusTool, 'name' | 'service' | 'operation'>): string {
  return tool.name ?? `${tool.service}_${tool.operation}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

/** Where a Nexus tool's calls go: what the workflow needs to start the operation. */
export const NexusTargetSchema = z.object({
  endpoint: z.string(),
  service: z.string(),
  operation: z.string(),
  timeoutSeconds: z.number().positive().optional(),
});
export type NexusTarget = z.infer<typeof NexusTargetSchema>;

/** An agent's Nexus tools by tool name, as `resolveAgent` and `loadPreferences` hand them to the workflow. */
export const NexusTargetsSchema = z.record(z.string(), NexusTargetSchema);
export type NexusTargets = z.infer<typeof NexusTargetsSchema>;

/** The agent's Nexus tools by the name the model calls them. */
export function nexusTargetsOf(tools: readonly NexusTool[]): NexusTargets {
  return Object.fromEntries(
    tools.map((t) => [nexusToolName(t), { endpoint: t.endpoint, service: t.service, operation: t.operation, ...(t.timeoutSeconds ? { timeoutSeconds: t.timeoutSeconds } : {}) }]),
  );
}
