import { z } from 'zod';
import { ToolScopeSchema } from '../../contract/tool-scope';

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

/** A host folder a sandboxed server sees, at the same path; relative paths start at the workspace root. */
export const McpFolderSchema = z
  .object({
    path: z
      .string({ error: 'path must be a folder: absolute, or relative to the workspace root' })
      .min(1, 'path must be a folder: absolute, or relative to the workspace root'),
    writable: z.boolean({ error: 'writable must be true or false (the default: read-only)' }).default(false),
  })
  .strict();
export type McpFolder = z.output<typeof McpFolderSchema>;

/** What a sandboxed server sees when its configuration names no folders: the workspace, writable. */
export const DEFAULT_MCP_FOLDERS: readonly McpFolder[] = [{ path: '.', writable: true }];

/** A server the worker starts as a child process and talks to over stdin/stdout. */
export const StdioServerSchema = z
  .object({
    command: z.string().min(1, 'command names the program that runs the server, e.g. "npx" or "node"'),
    args: z.array(z.string()).default([]),
    /** Added to a minimal environment (PATH, HOME, USER, ...); `${NAME}` takes NAME from the worker's environment. */
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    /** false runs the server on the host, unsandboxed, with a warning at start (see mcp-sandbox.ts). */
    sandbox: z
      .boolean({ error: 'sandbox must be true (the default: run the server in the bubblewrap sandbox) or false (run it unsandboxed, with a warning)' })
      .default(true),
    /** Whether the sandboxed server shares the host's network; without it, it has none. */
    network: z.boolean({ error: 'network must be true or false (the default: no network)' }).optional(),
    /** The host folders the sandboxed server sees besides the system folders (default: the workspace, writable). */
    folders: z.array(McpFolderSchema, { error: 'folders must be a list of { path, writable } entries' }).optional(),
    ...common,
  })
  .strict()
  .superRefine((server, ctx) => {
    // Confinement settings on an unsandboxed server would promise what nothing enforces.
    if (server.sandbox) return;
    for (const field of ['network', 'folders'] as const) {
      if (server[field] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${field} has no effect with sandbox: false (the server sees the whole host and the network); remove one of them` });
      }
    }
  });

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
