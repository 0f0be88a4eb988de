import * as path from 'node:path';
import { McpServerStartError } from '../../contract/errors';
import { requireInstalled } from '../optional-dependency';
import { MCP_FEATURE, McpConnection } from './mcp-connection';
import { prepareMcpHost, unsandboxedWarnings, type McpHost } from './mcp-sandbox';
import type { McpServersConfig } from './mcp-server-config';

/** How long a server may take to start and list its tools when the worker starts. */
const START_TIMEOUT_MS = 30_000;

/** What `agentctl agents` shows of a server. */
export interface McpServerSnapshot {
  name: string;
  transport: 'stdio' | 'http';
  endpoint: string;
  connected: boolean;
  tools: string[];
  connects: number;
}

/**
 * The worker's MCP connections, one per configured server, shared by every run and tool call on the
 * worker. All servers are started (and their tool lists read) before the worker polls: a server that
 * cannot start is a configuration error, reported with what the server printed.
 */
export class McpPool {
  private constructor(private readonly connections: ReadonlyMap<string, McpConnection>) {}

  /**
   * `host` is the worker's sandbox (see mcp-sandbox.ts); every stdio server that will run outside it
   * is named in a warning before anything starts.
   */
  static async start(servers: McpServersConfig, env: NodeJS.ProcessEnv, host: McpHost, warn: (message: string) => void = console.warn): Promise<McpPool> {
    // The SDK is an optional peer dependency: say so before anything starts.
    if (Object.keys(servers).length > 0) requireInstalled(MCP_FEATURE, ['@modelcontextprotocol/sdk']);
    for (const warning of unsandboxedWarnings(servers, host.mode)) warn(warning);
    const sandboxed = Object.values(servers).filter((config) => 'command' in config && config.sandbox !== false);
    if (sandboxed.length > 0) {
      const writable = sandboxed.flatMap((config) => ('command' in config ? (config.folders ?? []) : []).filter((f) => f.writable).map((f) => path.resolve(host.workspaceRoot, f.path)));
      host = await prepareMcpHost(host, writable);
    }
    const connections = new Map(Object.entries(servers).map(([name, config]) => [name, new McpConnection(name, config, env, host)]));
    const results = await Promise.allSettled([...connections.values()].map((c) => c.ensureConnected(START_TIMEOUT_MS)));
    const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [{ connection: [...connections.values()][i]!, error: r.reason as Error }] : []));
    if (failed.length > 0) {
      await Promise.all([...connections.values()].map((c) => c.close()));
      throw new McpServerStartError(failed.map(({ connection, error }) => startFailure(connection, error)).join('\n'));
    }
    return new McpPool(connections);
  }

  static empty(): McpPool {
    return new McpPool(new Map());
  }

  get(server: string): McpConnection | undefined {
    return this.connections.get(server);
  }

  all(): McpConnection[] {
    return [...this.connections.values()];
  }

  snapshot(): McpServerSnapshot[] {
    return this.all().map((c) => ({
      name: c.server,
      transport: 'command' in c.config ? 'stdio' : 'http',
      endpoint: c.endpoint,
      connected: c.connected,
      tools: c.tools.map((t) => t.name),
      connects: c.connects,
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((c) => c.close()));
  }
}

function startFailure(connection: McpConnection, error: Error): string {
  // A folder, working directory or program the sandbox cannot give: the message says what to fix.
  if (error instanceof McpServerStartError) return `MCP server "${connection.server}" (${connection.endpoint}) could not be started: ${error.message}`;
  const printed = connection.stderr ? `\n  It printed: ${connection.stderr.split('\n').slice(-5).join('\n  ')}` : '';
  const fix =
    'command' in connection.config
      ? 'Check that the command runs on its own in a terminal (and that its program is installed), or remove the server from the configuration.'
      : 'Check that the server is running and that the URL and headers are right, or remove it from the configuration.';
  return `MCP server "${connection.server}" (${connection.endpoint}) could not be started: ${error.message}.${printed}\n  ${fix}`;
}
