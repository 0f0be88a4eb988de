// How tests point a worker at the notes server: a stdio server entry, and an HTTP one served in-process.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createNotesServer } from './notes-server';
import { SUPPORT_DIR, TSX_LOADER } from './server-entries';

const STDIO_ENTRY = path.join(__dirname, 'notes-server-stdio.ts');

/**
 * The `mcpServers` entry that starts the notes server over stdio on `dir`, sandboxed: it sees the
 * notes folder (writable) and its own source folder (it loads notes-server.ts from beside its entry).
 */
export function stdioNotesServer(dir: string) {
  return {
    command: process.execPath,
    args: ['--import', TSX_LOADER, STDIO_ENTRY, dir],
    folders: [{ path: dir, writable: true }, { path: SUPPORT_DIR }],
  };
}

/** The notes server over streamable HTTP (stateless: one server per request), recording request headers. */
export async function startHttpNotesServer(dir: string) {
  const headers: http.IncomingHttpHeaders[] = [];
  const server = http.createServer(async (req, res) => {
    headers.push(req.headers);
    const mcp = createNotesServer(dir);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    headers,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
