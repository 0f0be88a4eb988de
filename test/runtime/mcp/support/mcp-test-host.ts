// The host facts a test worker would give its MCP servers: the real bwrap sandbox, or none.
import { realpathSync } from 'node:fs';
import { mcpHostFor, type McpHost } from '../../../../src/runtime/mcp/mcp-sandbox';
import { detectChildGuard } from '../../../../src/runtime/tools/sandbox/child-guard';
import { resolveSandboxMode } from '../../../../src/runtime/tools/sandbox/sandbox-mode';
import { resolveSandboxUser } from '../../../../src/runtime/tools/sandbox/sandbox-user';

/**
 * bwrap, required: a host without it fails the test rather than quietly testing nothing. As a
 * worker would, a root test process runs its servers as the sandbox user (nobody by default).
 */
export function sandboxedHost(workspace: string): McpHost {
  const mode = resolveSandboxMode({ PATH: process.env.PATH, AGENT_SANDBOX: 'bwrap' });
  return mcpHostFor({ mode, childGuard: undefined, user: resolveSandboxUser(undefined) }, realpathSync(workspace));
}

/** What a worker without bwrap gives its servers (AGENT_SANDBOX=none): the host, under the child guard. */
export function unsandboxedHost(workspace: string): McpHost {
  const mode = resolveSandboxMode({ AGENT_SANDBOX: 'none' });
  return mcpHostFor({ mode, childGuard: detectChildGuard(process.env), user: undefined }, realpathSync(workspace));
}
