import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { defineJsonSchemaTool } from '../tools/json-schema-tool';
import type { Tool } from '../tools/tool-definition';
import { ToolResult } from '../../contract/tool-result';
import type { ToolScope } from '../../contract/tool-scope';
import { toToolResult } from './mcp-call-result';
import { McpToolGoneError, type McpConnection, type McpToolInfo } from './mcp-connection';
import type { McpPool } from './mcp-pool';

/** The name a server's tool has among the agent's tools; the prefix keeps servers apart. */
export const mcpToolName = (server: string, tool: string) => `mcp__${server}__${tool}`;
export const mcpServerPrefix = (server: string) => `mcp__${server}__`;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A tool's scope and whether it may run again, from its annotations unless the configuration says
 * otherwise. Annotations are the server's own hints: `readOnlyHint` → read (and safe to repeat),
 * `destructiveHint` → execute, anything else → write; `idempotentHint` → safe to repeat.
 *
 * A server that is not `contained` (an HTTP server, a stdio server with `sandbox: false` or
 * `network: true`, or any server of a worker without bwrap) can send what a call carries anywhere, so
 * its own "read-only" is no reason to run the call unseen: such a tool is `write` (it parks by default
 * and in acceptEdits) unless the configuration names its scope. Nothing the worker controls confines
 * what it does.
 */
export function classifyMcpTool(tool: McpToolInfo, override: { scope?: ToolScope; idempotent?: boolean } = {}, contained = true): { scope: ToolScope; idempotent: boolean } {
  const hints = tool.annotations ?? {};
  const hinted: ToolScope = hints.readOnlyHint ? 'read' : hints.destructiveHint ? 'execute' : 'write';
  const scope = override.scope ?? (hinted === 'read' && !contained ? 'write' : hinted);
  // Safe to repeat when read-only by the configuration, or by the server's hint where the configuration is silent.
  const idempotent = override.idempotent ?? ((override.scope ?? hinted) === 'read' || hints.idempotentHint === true);
  return { scope, idempotent };
}

/** A sandboxed stdio server without the network: what it does stays in the folders it was given. */
function isContained(connection: McpConnection): boolean {
  return connection.sandboxed && 'command' in connection.config && connection.config.network !== true;
}

/** What went wrong with a call, for the model: the call may or may not have reached the server. */
function callFailure(connection: McpConnection, error: unknown): ToolResult {
  if (error instanceof McpToolGoneError) return ToolResult.error(`${error.message} Use another tool or explain what you cannot do.`);
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof McpError && error.code !== -32000 && error.code !== -32001) {
    return ToolResult.error(`MCP server "${connection.server}" refused the call: ${message}`);
  }
  const printed = connection.stderr ? ` It printed: ${connection.stderr.split('\n').slice(-3).join(' | ')}` : '';
  return ToolResult.error(
    `MCP server "${connection.server}" failed during the call (${message}); whether the call took effect is unknown. ` +
      `The worker reconnects on the next call.${printed}`,
  );
}

function toolOf(connection: McpConnection, info: McpToolInfo, warn: (message: string) => void): Tool | undefined {
  const name = mcpToolName(connection.server, info.name);
  if (!TOOL_NAME.test(name)) {
    warn(`MCP server "${connection.server}": tool "${info.name}" is left out; its name ${name} does not fit the Messages API (letters, digits, _ and -, at most 64).`);
    return undefined;
  }
  const { scope, idempotent } = classifyMcpTool(info, connection.config.tools[info.name], isContained(connection));
  try {
    return defineJsonSchemaTool({
      name,
      description: info.description || info.title || `${info.name} (from MCP server ${connection.server})`,
      scope,
      idempotent,
      inputJsonSchema: info.inputSchema as Record<string, unknown>,
      async execute(input, context) {
        try {
          return toToolResult(await connection.callTool(info.name, input, { signal: context.signal }));
        } catch (error) {
          if (context.signal.aborted) throw error;
          return callFailure(connection, error);
        }
      },
    });
  } catch (error) {
    warn(`MCP server "${connection.server}": tool "${info.name}" is left out: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * The tools of every server in the pool, as they were listed when the worker started. Every call is
 * an ordinary tool call (one `runTool` activity), so approvals, rules, the audit log and at-most-once
 * apply to it as to any other tool. A tool that cannot be offered (its name or schema does not fit
 * the Messages API) is left out with a warning rather than stopping the worker.
 */
export function mcpTools(pool: McpPool, warn: (message: string) => void = console.warn): Tool[] {
  return pool.all().flatMap((connection) => connection.tools.flatMap((info) => toolOf(connection, info, warn) ?? []));
}
