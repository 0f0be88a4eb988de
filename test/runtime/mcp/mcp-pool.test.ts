import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentConfigError, McpServerStartError } from '../../../src/contract/errors';
import { McpToolGoneError } from '../../../src/runtime/mcp/mcp-connection';
import { McpPool } from '../../../src/runtime/mcp/mcp-pool';
import { McpServersSchema } from '../../../src/runtime/mcp/mcp-server-config';
import { mcpTools } from '../../../src/runtime/mcp/mcp-tools';
import { toolContext } from '../tools/tool-test-context';
import { CRASH_LOG, HIDDEN_TOOLS } from './support/notes-server';
import { startHttpNotesServer, stdioNotesServer } from './support/notes-server-config';
import { sandboxedHost } from './support/mcp-test-host';

const servers = (raw: unknown) => McpServersSchema.parse(raw);

describe('McpPool', () => {
  let dir: string;
  let pool: McpPool | undefined;
  // The notes folder is the workspace of these servers, which run sandboxed as a worker's would.
  const host = () => sandboxedHost(dir);
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'notes-'));
    await writeFile(path.join(dir, 'todo.md'), 'buy milk');
  });
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('starts a stdio server, reads its tools, and turns them into mcp__<server>__<tool> tools scoped by their annotations', async () => {
    pool = await McpPool.start(servers({ notes: { ...stdioNotesServer(dir), tools: { crash: { scope: 'write' } } } }), process.env, host());
    const tools = mcpTools(pool);
    expect(tools.map((t) => [t.name, t.scope, t.idempotent])).toEqual([
      ['mcp__notes__read_note', 'read', true],
      ['mcp__notes__delete_note', 'execute', false],
      // The configuration overrides what the annotations say; a write tool runs at most once.
      ['mcp__notes__crash', 'write', false],
    ]);
    const read = tools[0]!;
    expect(read.jsonSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    expect(read.inputSchema.safeParse({ name: 42 }).success).toBe(false);
    expect(await read.execute({ name: 'todo.md' }, toolContext(dir))).toEqual({ success: true, shouldContinue: true, output: 'buy milk' });
    expect(await read.execute({ name: 'nope' }, toolContext(dir))).toMatchObject({ success: false, output: 'No note named nope.' });
  });

  it('reports a server that crashes mid-call as an error result, and reconnects for the next call', async () => {
    pool = await McpPool.start(servers({ notes: stdioNotesServer(dir) }), process.env, host());
    const [read, , crash] = mcpTools(pool);
    const crashed = await crash!.execute({}, toolContext(dir));
    expect(crashed.success).toBe(false);
    expect(crashed.output).toMatch(/MCP server "notes" failed during the call \(.*closed.*\); whether the call took effect is unknown/i);
    expect(await readFile(path.join(dir, CRASH_LOG), 'utf8')).toMatch(/^\d+\n$/);
    expect(await read!.execute({ name: 'todo.md' }, toolContext(dir))).toMatchObject({ success: true, output: 'buy milk' });
    expect(pool.get('notes')!.connects).toBe(2);
  });

  it('tells the model when a tool it was given has disappeared from the server', async () => {
    pool = await McpPool.start(servers({ notes: stdioNotesServer(dir) }), process.env, host());
    const [read, , crash] = mcpTools(pool);
    // The server comes back without read_note.
    await writeFile(path.join(dir, HIDDEN_TOOLS), 'read_note');
    await crash!.execute({}, toolContext(dir));
    await expect(pool.get('notes')!.callTool('read_note', { name: 'todo.md' })).rejects.toThrow(McpToolGoneError);
    const result = await read!.execute({ name: 'todo.md' }, toolContext(dir));
    expect(result).toMatchObject({ success: false });
    expect(result.output).toContain('MCP server "notes" no longer offers the tool "read_note" (it offers: delete_note, crash)');
  });

  it('fails at start, naming the server and what it printed, when a stdio server cannot start', async () => {
    const missing = McpPool.start(servers({ ghost: { command: 'no-such-mcp-server-here' } }), process.env, host());
    await expect(missing).rejects.toThrow(McpServerStartError);
    await expect(missing).rejects.toThrow(/MCP server "ghost" \(no-such-mcp-server-here\) could not be started: .*ENOENT/);
    const dies = McpPool.start(servers({ broken: { command: process.execPath, args: ['-e', 'console.error("missing API token"); process.exit(2)'] } }), process.env, host());
    await expect(dies).rejects.toThrow(/MCP server "broken" .* could not be started: [\s\S]*It printed: missing API token/);
  });

  it('talks to a streamable HTTP server, with headers taken from the environment', async () => {
    const http = await startHttpNotesServer(dir);
    try {
      pool = await McpPool.start(servers({ remote: { url: http.url, headers: { authorization: 'Bearer ${NOTES_TOKEN}' } } }), { NOTES_TOKEN: 's3cret' }, host());
      const read = mcpTools(pool).find((t) => t.name === 'mcp__remote__read_note')!;
      // Nothing confines an HTTP server: its own readOnlyHint does not make the tool run unseen (issue 30).
      expect(read.scope).toBe('write');
      expect(await read.execute({ name: 'todo.md' }, toolContext(dir))).toMatchObject({ success: true, output: 'buy milk' });
      expect(http.headers.map((h) => h.authorization)).toContain('Bearer s3cret');
      expect(pool.snapshot()).toEqual([{ name: 'remote', transport: 'http', endpoint: http.url, connected: true, tools: ['read_note', 'delete_note', 'crash'], connects: 1 }]);
    } finally {
      await pool?.close();
      pool = undefined;
      await http.close();
    }
  });

  it('refuses a header that names an environment variable the worker does not have', async () => {
    await expect(McpPool.start(servers({ remote: { url: 'http://127.0.0.1:1/mcp', headers: { authorization: 'Bearer ${NOPE_TOKEN}' } } }), {}, host())).rejects.toThrow(
      /could not be started: mcpServers\.remote\.headers\.authorization uses \$\{NOPE_TOKEN\}, but NOPE_TOKEN is not set/,
    );
    expect(AgentConfigError).toBeDefined();
  });
});
