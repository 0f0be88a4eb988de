// What a configuration may say about a stdio server's sandbox, and the errors it gets for the rest:
// each names the server and the field, in the file (zod, when the worker reads AGENT_CONFIG) or at
// start (folders and working folders the sandbox cannot give).
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../../src/runtime/config/load-agent-config';
import { AgentConfigError, McpServerStartError } from '../../../src/contract/errors';
import { McpPool } from '../../../src/runtime/mcp/mcp-pool';
import { McpServersSchema } from '../../../src/runtime/mcp/mcp-server-config';
import { sandboxedHost } from './support/mcp-test-host';
import { probeServer } from './support/server-entries';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcp-config-'));
});

/** The problems loadAgentConfig reports for a file with these `mcpServers` entries. */
async function problemsOf(servers: string[]): Promise<string> {
  const file = path.join(dir, 'agents.yaml');
  await writeFile(file, ['includeBuiltinAgents: true', 'mcpServers:', ...servers.map((s) => `  ${s}`)].join('\n'));
  try {
    loadAgentConfig(file);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('a stdio MCP server configuration', () => {
  it('defaults to the sandbox, no network and the workspace writable', () => {
    const { files } = McpServersSchema.parse({ files: { command: 'node' } });
    expect(files).toMatchObject({ sandbox: true });
    expect(files).not.toHaveProperty('network');
    expect(files).not.toHaveProperty('folders');
  });

  it('refuses bad sandbox, network and folders values, naming the server and the field', async () => {
    const message = await problemsOf([
      'a: { command: node, sandbox: "yes" }',
      'b: { command: node, network: 1 }',
      'c: { command: node, folders: [{ path: 3 }] }',
      'd: { command: node, folders: [{ path: data, writable: "yes" }] }',
      'e: { command: node, folders: "." }',
      'f: { command: node, folders: [{ path: data, mode: rw }] }',
      'g: { command: node, sandbox: false, folders: [{ path: . }] }',
      'h: { command: node, sandbox: false, network: true }',
      'i: { url: "http://127.0.0.1:1/mcp", sandbox: false }',
    ]);
    expect(message).toContain('- mcpServers.a.sandbox: sandbox must be true (the default: run the server in the bubblewrap sandbox) or false');
    expect(message).toContain('- mcpServers.b.network: network must be true or false');
    expect(message).toContain('- mcpServers.c.folders[0].path: path must be a folder: absolute, or relative to the workspace root');
    expect(message).toContain('- mcpServers.d.folders[0].writable: writable must be true or false');
    expect(message).toContain('- mcpServers.e.folders: folders must be a list of { path, writable } entries');
    expect(message).toContain('- mcpServers.f.folders[0].mode: unknown key');
    expect(message).toContain('- mcpServers.g.folders: folders has no effect with sandbox: false');
    expect(message).toContain('- mcpServers.h.network: network has no effect with sandbox: false');
    // An HTTP server is not a process the worker starts: nothing to sandbox.
    expect(message).toContain('- mcpServers.i.sandbox: unknown key');
  });

  it('refuses at start a folder the sandbox cannot give, naming the server and the field', async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), 'mcp-config-ws-'));
    const outside = await mkdtemp(path.join(tmpdir(), 'mcp-config-out-'));
    await symlink(outside, path.join(workspace, 'escape'));
    await writeFile(path.join(workspace, 'a-file'), 'x');
    const startWith = (extra: Record<string, unknown>) =>
      McpPool.start(McpServersSchema.parse({ probe: { ...probeServer(), ...extra } }), process.env, sandboxedHost(workspace), () => undefined);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ folders: [{ path: '.' }, { path: 'missing' }] }, /mcpServers\.probe\.folders\[1\]\.path: .*missing cannot be given to the sandboxed server \(ENOENT\)/],
      [{ folders: [{ path: 'a-file' }] }, /mcpServers\.probe\.folders\[0\]\.path: .*a-file is not a folder/],
      [{ folders: [{ path: '/' }] }, /mcpServers\.probe\.folders\[0\]\.path: "\/" is the whole host, which is no sandbox/],
      [{ folders: [{ path: 'escape', writable: true }] }, /mcpServers\.probe\.folders\[0\]\.path: .*escape is in the workspace but leads to .* outside it, through a symlink/],
      [{ cwd: outside }, /mcpServers\.probe\.cwd: .* is not inside the workspace or one of the server's folders/],
      [{ command: 'no-such-mcp-program' }, /mcpServers\.probe\.command: the program "no-such-mcp-program" was not found on PATH/],
    ];
    for (const [extra, expected] of cases) {
      const started = startWith(extra);
      await expect(started).rejects.toThrow(McpServerStartError);
      await expect(started).rejects.toThrow(expected);
    }
  });
});
