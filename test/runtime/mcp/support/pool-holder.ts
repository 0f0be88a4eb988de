// A stand-in worker for the lifetime test: starts the lingering probe server through McpPool (in
// the sandbox, or without one when the second argument is "none"), prints the launcher's pid, and
// waits to be killed.
import { McpPool } from '../../../../src/runtime/mcp/mcp-pool';
import { McpServersSchema } from '../../../../src/runtime/mcp/mcp-server-config';
import { sandboxedHost, unsandboxedHost } from './mcp-test-host';
import { probeServer } from './server-entries';

async function run(): Promise<void> {
  const [workspace, mode] = process.argv.slice(2);
  if (!workspace) throw new Error('usage: pool-holder <workspace> [none]');
  const probe = probeServer();
  const servers = McpServersSchema.parse({ probe: { ...probe, args: [...probe.args, '--linger'] } });
  const host = mode === 'none' ? unsandboxedHost(workspace) : sandboxedHost(workspace);
  const pool = await McpPool.start(servers, {}, host, () => undefined);
  process.stdout.write(`${JSON.stringify({ pid: pool.get('probe')!.pid })}\n`);
  setInterval(() => undefined, 60_000);
}

run().catch((error) => {
  process.stderr.write(`pool holder failed: ${String(error)}\n`);
  process.exit(1);
});
