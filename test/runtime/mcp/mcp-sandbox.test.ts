// Stdio MCP servers inside the command sandbox, attacked with real servers under the real bwrap: the
// official filesystem server, told by its own arguments that it may read outside the workspace (or
// all of `/`), and a hostile probe server that tries the network, the host's processes and files.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpPool } from '../../../src/runtime/mcp/mcp-pool';
import type { McpCallToolResult } from '../../../src/runtime/mcp/mcp-connection';
import { McpServersSchema } from '../../../src/runtime/mcp/mcp-server-config';
import { sandboxedHost, unsandboxedHost } from './support/mcp-test-host';
import { FILESYSTEM_SERVER, probeServer } from './support/server-entries';

const servers = (raw: unknown) => McpServersSchema.parse(raw);
const textOf = (result: McpCallToolResult) => result.content.map((c) => (c.type === 'text' ? String(c.text) : '')).join('\n');
const SECRET = 'the outside secret';

describe('a stdio MCP server in the sandbox', () => {
  let workspace: string;
  let outside: string;
  let pool: McpPool | undefined;
  let warnings: string[];
  let listener: net.Server;
  let port: number;

  beforeAll(async () => {
    // A loopback service on the host, as the Temporal frontend is: a sandboxed server must not reach it.
    listener = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));
  beforeEach(async () => {
    workspace = await mkdtemp(path.join(tmpdir(), 'mcp-ws-'));
    // Outside /tmp too, so that the sandbox's private /tmp is not what hides it.
    outside = await mkdtemp(path.join('/var/tmp', 'mcp-outside-'));
    // Readable by anyone, as a folder a root worker's servers may read must be (they run as nobody):
    // what keeps the secret from them is the sandbox, not the folder's mode.
    await chmod(outside, 0o755);
    await writeFile(path.join(outside, 'secret.txt'), SECRET, { mode: 0o644 });
    warnings = [];
  });
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
    await rm(outside, { recursive: true, force: true });
  });

  const start = async (raw: unknown, host = sandboxedHost(workspace)) => {
    pool = await McpPool.start(servers(raw), process.env, host, (m) => warnings.push(m));
    return pool;
  };
  const call = (server: string, tool: string, args: Record<string, unknown> = {}) => pool!.get(server)!.callTool(tool, args);

  it('lets the filesystem server write in the workspace, not read or write a folder its own arguments allow', async () => {
    await start({ files: { command: process.execPath, args: [FILESYSTEM_SERVER, workspace, outside] } });
    expect(pool!.get('files')!.sandboxed).toBe(true);
    expect(warnings).toEqual([]);

    const wrote = await call('files', 'write_file', { path: path.join(workspace, 'hello.txt'), content: 'hi from the server' });
    expect(wrote.isError).toBeFalsy();
    expect(await readFile(path.join(workspace, 'hello.txt'), 'utf8')).toBe('hi from the server');

    const read = await call('files', 'read_text_file', { path: path.join(outside, 'secret.txt') });
    expect(read.isError).toBe(true);
    expect(textOf(read)).not.toContain(SECRET);
    const planted = await call('files', 'write_file', { path: path.join(outside, 'planted.txt'), content: 'x' });
    expect(planted.isError).toBe(true);
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });

  it('holds when the server allows itself all of / : the host outside its folders is not there', async () => {
    await start({ files: { command: process.execPath, args: [FILESYSTEM_SERVER, workspace, '/'] } });
    const read = await call('files', 'read_text_file', { path: path.join(outside, 'secret.txt') });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/ENOENT/);
    // The worker's own folder (this checkout, with its .env if any) and /root are not visible either.
    const listing = await call('files', 'list_directory', { path: '/' });
    expect(textOf(listing)).not.toMatch(/\broot\b|\bhome\b|\bvar\b/);
    // What it does see of the host, read-only: its own program (under node_modules).
    expect((await call('files', 'list_directory', { path: path.dirname(FILESYSTEM_SERVER) })).isError).toBeFalsy();
    expect(existsSync(path.join(process.cwd(), 'package.json'))).toBe(true);
    expect((await call('files', 'read_text_file', { path: path.join(process.cwd(), 'package.json') })).isError).toBe(true);
  });

  it('gives a read-only workspace when its folders say so', async () => {
    await start({ files: { command: process.execPath, args: [FILESYSTEM_SERVER, workspace], folders: [{ path: '.', writable: false }] } });
    await writeFile(path.join(workspace, 'notes.md'), 'readable');
    expect(textOf(await call('files', 'read_text_file', { path: path.join(workspace, 'notes.md') }))).toBe('readable');
    const wrote = await call('files', 'write_file', { path: path.join(workspace, 'new.md'), content: 'x' });
    expect(wrote.isError).toBe(true);
    expect(textOf(wrote)).toMatch(/EROFS|read-only/i);
    expect(existsSync(path.join(workspace, 'new.md'))).toBe(false);
  });

  it('shows an extra folder only as its folders entry says: read-only by default, writable when asked', async () => {
    await start({ files: { command: process.execPath, args: [FILESYSTEM_SERVER, workspace, outside], folders: [{ path: '.', writable: true }, { path: outside }] } });
    expect(textOf(await call('files', 'read_text_file', { path: path.join(outside, 'secret.txt') }))).toBe(SECRET);
    expect((await call('files', 'write_file', { path: path.join(outside, 'planted.txt'), content: 'x' })).isError).toBe(true);
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });

  it('keeps the workspace writable inside a read-only folder that holds it', async () => {
    const inner = path.join(outside, 'ws');
    await mkdir(inner);
    await start(
      { files: { command: process.execPath, args: [FILESYSTEM_SERVER, outside], folders: [{ path: outside }, { path: '.', writable: true }] } },
      sandboxedHost(inner),
    );
    expect((await call('files', 'write_file', { path: path.join(inner, 'kept.txt'), content: 'x' })).isError).toBeFalsy();
    expect(await readFile(path.join(inner, 'kept.txt'), 'utf8')).toBe('x');
    expect(textOf(await call('files', 'read_text_file', { path: path.join(outside, 'secret.txt') }))).toBe(SECRET);
    expect((await call('files', 'write_file', { path: path.join(outside, 'planted.txt'), content: 'x' })).isError).toBe(true);
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });

  it('keeps a hostile server off the network, away from host processes, other runs and the worker environment', async () => {
    await writeFile(path.join(workspace, 'shared.txt'), 'shared');
    await start({ probe: probeServer() });
    expect(textOf(await call('probe', 'connect', { host: '127.0.0.1', port }))).toMatch(/^failed: (ECONNREFUSED|ENETUNREACH|timeout)/);
    expect(textOf(await call('probe', 'connect', { host: '1.1.1.1', port: 53 }))).toMatch(/^failed/);

    const processes = textOf(await call('probe', 'processes')).split('\n');
    // Its own PID namespace: bwrap's init and the server, nothing of the host (not this test process).
    expect(processes.length).toBeLessThanOrEqual(3);
    expect(processes.join('\n')).not.toMatch(/vitest/);

    const env = JSON.parse(textOf(await call('probe', 'env'))) as Record<string, string>;
    expect(Object.keys(env).filter((k) => /ANTHROPIC|TEMPORAL|AGENT_/.test(k))).toEqual([]);
    expect(env).toMatchObject({ HOME: '/tmp', cwd: workspace });

    expect(textOf(await call('probe', 'read_path', { path: path.join(workspace, 'shared.txt') }))).toBe('shared');
    expect(textOf(await call('probe', 'read_path', { path: path.join(outside, 'secret.txt') }))).toMatch(/^failed: ENOENT/);
    expect(textOf(await call('probe', 'write_path', { path: '/usr/planted', content: 'x' }))).toMatch(/^failed: (EROFS|EACCES)/);
  });

  it('runs as the sandbox user under a root worker, with the workspace writable for it and the protected paths read-only', async () => {
    expect(process.getuid?.()).toBe(0); // CI runs as root; this is the case the test is about.
    await mkdir(path.join(workspace, '.git'), { recursive: true });
    await writeFile(path.join(workspace, '.git', 'config'), '[core]\n');
    await writeFile(path.join(workspace, 'left-by-root.txt'), 'root wrote this');
    await start({ probe: probeServer() });
    const env = JSON.parse(textOf(await call('probe', 'env'))) as Record<string, string>;
    expect(env).toMatchObject({ uid: 65534 });
    expect(textOf(await call('probe', 'read_path', { path: '/etc/shadow' }))).toMatch(/^failed: (EACCES|ENOENT)/);
    expect(textOf(await call('probe', 'write_path', { path: path.join(workspace, 'left-by-root.txt'), content: 'changed' }))).toBe('written');
    expect(textOf(await call('probe', 'write_path', { path: path.join(workspace, '.git', 'config'), content: '[core]\n\tfsmonitor = "touch PWNED"\n' }))).toMatch(/^failed: (EROFS|EACCES)/);
    expect(await readFile(path.join(workspace, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it('does not show the runs/ folder: per-run workspaces stay hidden from a server every run shares', async () => {
    const other = path.join(workspace, 'runs', 'other-run');
    await mkdir(other, { recursive: true });
    await writeFile(path.join(other, 'secret.txt'), 'another run');
    await start({ probe: probeServer() });
    expect(textOf(await call('probe', 'read_path', { path: path.join(other, 'secret.txt') }))).toMatch(/^failed: ENOENT/);
  });

  it('reaches the network with network: true', async () => {
    await start({ probe: { ...probeServer(), network: true } });
    expect(textOf(await call('probe', 'connect', { host: '127.0.0.1', port }))).toBe('connected');
  });

  it('runs unsandboxed, as before, with sandbox: false, and says so at start naming the server', async () => {
    await start({ probe: { ...probeServer(), sandbox: false } });
    expect(pool!.get('probe')!.sandboxed).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/^MCP server "probe" runs UNSANDBOXED \(its configuration says sandbox: false\)/)]);
    expect(textOf(await call('probe', 'read_path', { path: path.join(outside, 'secret.txt') }))).toBe(SECRET);
    expect(textOf(await call('probe', 'connect', { host: '127.0.0.1', port }))).toBe('connected');
    // The filesystem server's own check is then all there is: with the outside folder allowed, it reads it.
    await pool!.close();
    await start({ files: { command: process.execPath, args: [FILESYSTEM_SERVER, workspace, outside], sandbox: false } });
    expect(textOf(await call('files', 'read_text_file', { path: path.join(outside, 'secret.txt') }))).toBe(SECRET);
  });

  it('runs unsandboxed where the worker has no bwrap (AGENT_SANDBOX=none), and says why', async () => {
    await start({ probe: probeServer() }, unsandboxedHost(workspace));
    expect(pool!.get('probe')!.sandboxed).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/^MCP server "probe" runs UNSANDBOXED \(AGENT_SANDBOX=none was set\)/)]);
    expect(textOf(await call('probe', 'read_path', { path: path.join(outside, 'secret.txt') }))).toBe(SECRET);
  });
});
