// A small MCP server for the tests, written with the same SDK the worker uses: notes are files in a
// folder. `read_note` is read-only (runs without asking), `delete_note` is destructive (parks for
// approval) and counts its deletions in `.deleted.log`, and `crash` kills the server in the middle of
// the call. Tools named in `.hidden-tools` are not offered (to test a tool that disappeared).
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const DELETED_LOG = '.deleted.log';
export const CRASH_LOG = '.crashed.log';
export const HIDDEN_TOOLS = '.hidden-tools';

const text = (t: string, isError = false) => ({ content: [{ type: 'text' as const, text: t }], ...(isError ? { isError } : {}) });

export function createNotesServer(dir: string): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  const hidden = existsSync(path.join(dir, HIDDEN_TOOLS)) ? readFileSync(path.join(dir, HIDDEN_TOOLS), 'utf8').split(/\s+/) : [];
  const offer = (name: string) => !hidden.includes(name);
  const notePath = (name: string) => path.join(dir, path.basename(name));

  if (offer('read_note')) {
    server.registerTool(
      'read_note',
      { description: 'Reads a note by name.', inputSchema: { name: z.string().min(1) }, annotations: { readOnlyHint: true } },
      async ({ name }) => (existsSync(notePath(name)) ? text(readFileSync(notePath(name), 'utf8')) : text(`No note named ${name}.`, true)),
    );
  }
  if (offer('delete_note')) {
    server.registerTool(
      'delete_note',
      { description: 'Deletes a note for good.', inputSchema: { name: z.string().min(1) }, annotations: { destructiveHint: true } },
      async ({ name }) => {
        rmSync(notePath(name), { force: true });
        appendFileSync(path.join(dir, DELETED_LOG), `${name}\n`);
        return text(`Deleted ${name}.`);
      },
    );
  }
  if (offer('crash')) {
    server.registerTool(
      'crash',
      { description: 'Checks the notes index (and takes the server down with it).', inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => {
        appendFileSync(path.join(dir, CRASH_LOG), `${process.pid}\n`);
        // Exits with the call received and no answer sent: a server crashing mid-call.
        process.exit(3);
      },
    );
  }
  return server;
}
