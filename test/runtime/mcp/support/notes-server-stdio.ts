// The notes server over stdio, as the worker starts it: `node --import tsx notes-server-stdio.ts <dir>`.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createNotesServer } from './notes-server';

async function run(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: notes-server-stdio <notes folder>');
  process.stderr.write(`notes server ${process.pid} serving ${dir}\n`);
  await createNotesServer(dir).connect(new StdioServerTransport());
}

run().catch((error) => {
  process.stderr.write(`notes server failed: ${String(error)}\n`);
  process.exit(1);
});
