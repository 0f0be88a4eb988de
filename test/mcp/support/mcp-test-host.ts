// The host facts a test worker would give its MCP servers: the real bwrap sandbox, or none.
import { realpathSync } from 'node:fs';
import { mcpHostFor, type McpHost } from '../../../src/mcp/mcp-sandbox';
import { detectChildGuard } from '../../../src/tools/sandbox/child-guard';
import { resolveSandboxMode } from '../../../src/tools/sandbox/sandbox-mode';

/** bwrap, required: a host without it fails the test rather than quietly testing nothing. */
export function sandboxedHost(workspace: string): McpHost {
  const mode = resolveSandboxMode({ PATH: process.env.PATH, AGENT_SANDBOX: 'bwrap' });
  return mcpHostFor({ mode, childGuard: undefined }, realpathSync(workspace));
}

/** What a worker without bwrap gives its servers (AGENT_SANDBOX=none): the host, under the child guard. */
export function unsandboxedHost(workspace: string): McpHost {
  const mode = resolveSandboxMode({ AGENT_SANDBOX: 'none' });
  return mcpHostFor({ mode, childGuard: detectChildGuard(process.env) }, realpathSync(workspace));
}
