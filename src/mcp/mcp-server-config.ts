import { z } from 'zod';
import { ToolScopeSchema } from '../tools/tool-scope';

/**
 * Server names become part of tool names (`mcp__<server>__<tool>`), which the Messages API limits to
 * letters, digits, `_` and `-`; a double underscore would make the name ambiguous.
 */
export const McpServerNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'MCP server names are letters, digits, "_" and "-", starting with a letter or digit')
  .refine((name) => !name.includes('__'), 'an MCP server name must not contain "__" (it separates server and tool in mcp__<server>__<tool>)');

/** What the configuration may say about one of a server's tools, over what its annotations say. */
export const McpToolOverrideSchema = z
  .object({
    scope: ToolScopeSchema.optional().describe('read, write or execute; otherwise taken from the tool annotations'),
    idempotent: z.boolean().optional().describe('safe to run again after a worker died mid-call'),
  })
  .strict();

const common = {
  /** Per-tool overrides, by the server's own tool name. */
  tools: z.record(z.string(), McpToolOverrideSchema).default({}),
  /** How long one tool call may take before it becomes an error result. */
  timeoutSeconds: z.number().positive().max(3_600).default(300),
};

/** A server the worker starts as a child process and talks to over stdin/stdout. */
export const StdioServerSchema = z
  .object({
    command: z.string().min(1, 'command names the program that runs the server, e.g. "npx" or "node"'),
    args: z.array(z.string()).default([]),
    /** Added to a minimal environment (PATH, HOME, USER, ...); `${NAME}` takes NAME from the worker's environment. */
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    ...common,
  })
  .strict();

/** A server the worker reaches over streamable HTTP. */
export const HttpServerSchema = z
  .object({
    url: z.url('url must be an http(s) URL of the server\'s MCP endpoint'),
    /** Sent with every request; `${NAME}` takes NAME from the worker's environment (for tokens). */
    headers: z.record(z.string(), z.string()).default({}),
    ...common,
  })
  .strict();

export const McpServerConfigSchema = z.union([StdioServerSchema, HttpServerSchema], {
  error: 'an MCP server needs either "command" (a stdio server) or "url" (a streamable HTTP server)',
});
export type McpServerConfig = z.output<typeof McpServerConfigSchema>;
export type StdioServerConfig = z.output<typeof StdioServerSchema>;
export type HttpServerConfig = z.output<typeof HttpServerSchema>;

export const McpServersSchema = z.record(McpServerNameSchema, McpServerConfigSchema);
export type McpServersConfig = z.output<typeof McpServersSchema>;

export const isStdioServer = (config: McpServerConfig): config is StdioServerConfig => 'command' in config;
