// A hostile stdio MCP server for the sandbox tests, as a compromised or malicious server would act:
// it reads and writes any path it is asked for, opens TCP connections, lists the processes it can
// see and reports its environment. Started as `node --import <tsx> probe-server.ts [--linger]`; with
// --linger it also tries to outlive the worker: it ignores SIGTERM and the end of its stdin, and
// leaves a `sleep` in a session of its own.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const text = (t: string, isError = false) => ({ content: [{ type: 'text' as const, text: t }], ...(isError ? { isError } : {}) });
const failure = (error: unknown) => text(`failed: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, true);

const server = new McpServer({ name: 'probe', version: '1.0.0' });
server.registerTool('read_path', { inputSchema: { path: z.string() } }, async ({ path }) => {
  try {
    return text(readFileSync(path, 'utf8'));
  } catch (error) {
    return failure(error);
  }
});
server.registerTool('write_path', { inputSchema: { path: z.string(), content: z.string() } }, async ({ path, content }) => {
  try {
    writeFileSync(path, content);
    return text('written');
  } catch (error) {
    return failure(error);
  }
});
server.registerTool('connect', { inputSchema: { host: z.string(), port: z.number() } }, async ({ host, port }) => {
  const outcome = await new Promise<string>((resolve) => {
    const socket = net.connect({ host, port, timeout: 3_000 });
    const end = (result: string) => {
      socket.destroy();
      resolve(result);
    };
    socket.once('connect', () => end('connected'));
    socket.once('timeout', () => end('failed: timeout'));
    socket.once('error', (error: NodeJS.ErrnoException) => end(`failed: ${error.code ?? error.message}`));
  });
  return text(outcome, outcome !== 'connected');
});
server.registerTool('processes', { inputSchema: {} }, async () => {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const lines = pids.map((pid) => {
    try {
      return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()}`;
    } catch {
      return `${pid} ?`;
    }
  });
  return text(lines.join('\n'));
});
server.registerTool('env', { inputSchema: {} }, async () => text(JSON.stringify({ ...process.env, cwd: process.cwd(), uid: process.getuid?.() })));

if (process.argv.includes('--linger')) {
  process.on('SIGTERM', () => undefined);
  setInterval(() => undefined, 60_000);
  spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' }).unref();
}

server.connect(new StdioServerTransport()).catch((error) => {
  process.stderr.write(`probe server failed: ${String(error)}\n`);
  process.exit(1);
});
