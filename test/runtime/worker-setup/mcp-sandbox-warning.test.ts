// At worker start, every stdio MCP server that will run outside the sandbox is named in a warning:
// `sandbox: false` in its configuration, or a worker without bwrap. Sandboxed servers say nothing.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadWorkerAgents, type WorkerAgents } from '../../../src/runtime/worker-setup/load-agents';
import { sandboxedHost, unsandboxedHost } from '../mcp/support/mcp-test-host';
import { probeServer } from '../mcp/support/server-entries';

async function configWith(servers: Record<string, object>): Promise<{ file: string; workspace: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mcp-warning-'));
  const file = path.join(dir, 'agents.json');
  await writeFile(file, JSON.stringify({ includeBuiltinAgents: true, mcpServers: servers }));
  return { file, workspace: await mkdtemp(path.join(tmpdir(), 'mcp-warning-ws-')) };
}

describe('loadWorkerAgents with stdio MCP servers', () => {
  let loaded: WorkerAgents | undefined;
  afterEach(async () => {
    await loaded?.mcp.close();
    loaded = undefined;
    vi.restoreAllMocks();
  });

  it('warns at start naming each server that runs unsandboxed, and stays quiet about sandboxed ones', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { file, workspace } = await configWith({ boxed: probeServer(), open: { ...probeServer(), sandbox: false } });
    loaded = await loadWorkerAgents({ configFile: file, env: {}, mcpHost: sandboxedHost(workspace) });
    const warnings = warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('MCP server'));
    expect(warnings).toEqual([expect.stringMatching(/^WARNING: MCP server "open" runs UNSANDBOXED \(its configuration says sandbox: false\): it can read and write everything/)]);
    expect([loaded.mcp.get('boxed')!.sandboxed, loaded.mcp.get('open')!.sandboxed]).toEqual([true, false]);
  });

  it('warns for every stdio server when the worker has no sandbox, giving the reason', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { file, workspace } = await configWith({ boxed: probeServer() });
    loaded = await loadWorkerAgents({ configFile: file, env: {}, mcpHost: unsandboxedHost(workspace) });
    const warnings = warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('MCP server'));
    expect(warnings).toEqual([expect.stringMatching(/^WARNING: MCP server "boxed" runs UNSANDBOXED \(AGENT_SANDBOX=none was set\)/)]);
  });
});
