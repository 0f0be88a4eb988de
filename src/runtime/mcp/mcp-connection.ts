// The MCP SDK is an optional peer dependency: its types only are imported here, and its code is
// required when a worker with MCP servers connects (see mcpSdk), so a worker without any runs without it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expandEnvRecord } from '../config/expand-env';
import { requireOptional } from '../optional-dependency';
import { planStdioLaunch, type McpHost, type StdioLaunch } from './mcp-sandbox';
import { isStdioServer, type McpServerConfig } from './mcp-server-config';

/** What needs the MCP SDK, as the error that asks to install it names it. */
export const MCP_FEATURE = 'MCP servers (mcpServers in the agent config)';

/** The SDK's client and transports, loaded on first use. */
function mcpSdk() {
  return {
    ...requireOptional<typeof ClientModule>('@modelcontextprotocol/sdk/client/index.js', MCP_FEATURE),
    ...requireOptional<typeof StdioModule>('@modelcontextprotocol/sdk/client/stdio.js', MCP_FEATURE),
    ...requireOptional<typeof HttpModule>('@modelcontextprotocol/sdk/client/streamableHttp.js', MCP_FEATURE),
  };
}

/**
 * A tool as the server lists it (the MCP spec's fields the worker reads). Declared here, not taken
 * from the SDK, so the package's public types compile in a project without the SDK installed.
 */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, object>; required?: string[]; [key: string]: unknown };
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

/** What a tool call returned (the MCP spec's `CallToolResult`): content blocks, structured content, whether it failed. */
export interface McpCallToolResult {
  content: { type: string; [key: string]: unknown }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** The server no longer offers a tool the worker registered at start. */
export class McpToolGoneError extends Error {
  override readonly name = 'McpToolGoneError';
}

/** How much of a stdio server's stderr is kept, to explain a failed start or a crash. */
const STDERR_TAIL_CHARS = 2_000;
const CLIENT_INFO = { name: 'durable-agent', version: '0.1.0' };

/**
 * One MCP server, as the worker sees it: a client that connects on demand and again after the
 * connection dropped (a crashed stdio server is started anew; an HTTP session is opened anew), and
 * the server's tool list, read on every (re)connect and whenever the server says it changed.
 */
export class McpConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private toolList: McpToolInfo[] = [];
  private stderrTail = '';
  private launch: StdioLaunch | undefined;
  private stdio: StdioModule.StdioClientTransport | undefined;
  /** How many times a connection was made; 1 after start, more after reconnects. */
  connects = 0;

  constructor(
    readonly server: string,
    readonly config: McpServerConfig,
    private readonly env: NodeJS.ProcessEnv,
    private readonly host: McpHost,
  ) {}

  /** The tools the server offered at its last (re)connect or list change. */
  get tools(): readonly McpToolInfo[] {
    return this.toolList;
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Whether a stdio server runs in the sandbox; known once it was started (false for HTTP servers). */
  get sandboxed(): boolean {
    return this.launch?.sandboxed ?? false;
  }

  /** The process the worker started for a stdio server (bwrap when sandboxed), while it runs. */
  get pid(): number | undefined {
    return this.stdio?.pid ?? undefined;
  }

  /** What a stdio server last wrote to stderr (empty for HTTP servers). */
  get stderr(): string {
    return this.stderrTail.trim();
  }

  /** "npx -y some-server" or the URL: how the server is named in messages. */
  get endpoint(): string {
    return isStdioServer(this.config) ? [this.config.command, ...this.config.args].join(' ') : this.config.url;
  }

  /** Connects if not connected (one attempt at a time). */
  async ensureConnected(timeoutMs: number): Promise<void> {
    await this.liveClient(timeoutMs);
  }

  /** The live client, connecting first if not connected (one attempt at a time). */
  private liveClient(timeoutMs: number): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open(timeoutMs).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /**
   * Calls one tool. A tool the server no longer lists throws `McpToolGoneError`; a dropped connection
   * rejects the call (the caller reports it) and the next call reconnects.
   */
  async callTool(name: string, args: Record<string, unknown>, options: { signal?: AbortSignal } = {}): Promise<McpCallToolResult> {
    const timeout = this.config.timeoutSeconds * 1000;
    const client = await this.liveClient(Math.min(timeout, 30_000));
    if (!this.toolList.some((t) => t.name === name)) {
      const offered = this.toolList.map((t) => t.name).join(', ') || 'none';
      throw new McpToolGoneError(`MCP server "${this.server}" no longer offers the tool "${name}" (it offers: ${offered}).`);
    }
    return (await client.callTool({ name, arguments: args }, undefined, { signal: options.signal, timeout, resetTimeoutOnProgress: true })) as CallToolResult;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async open(timeoutMs: number): Promise<Client> {
    const { Client } = mcpSdk();
    const client = new Client(CLIENT_INFO, {
      capabilities: {},
      // A server may change its tools while the worker runs; calls to a tool it dropped are reported to the model.
      listChanged: { tools: { onChanged: (error, tools) => void (!error && tools && (this.toolList = tools)) } },
    });
    const transport = this.transport();
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
    };
    try {
      await client.connect(transport, { timeout: timeoutMs });
      this.toolList = await listAllTools(client, timeoutMs);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.connects += 1;
    return client;
  }

  private transport(): Transport {
    const { getDefaultEnvironment, StdioClientTransport, StreamableHTTPClientTransport } = mcpSdk();
    const where = `mcpServers.${this.server}`;
    if (isStdioServer(this.config)) {
      // Planned once: the sandbox's folders and program are checked when the worker starts.
      this.launch ??= planStdioLaunch(
        this.server,
        this.config,
        { ...getDefaultEnvironment(), ...expandEnvRecord(this.config.env, this.env, `${where}.env`) },
        this.host,
      );
      const { command, args, env, cwd } = this.launch;
      const transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'pipe' });
      this.stdio = transport;
      this.stderrTail = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
      return transport;
    }
    const headers = expandEnvRecord(this.config.headers, this.env, `${where}.headers`);
    return new StreamableHTTPClientTransport(new URL(this.config.url), { requestInit: { headers } });
  }
}

/** Every page of the server's tool list. */
async function listAllTools(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
