// Where the test MCP servers live, as a sandboxed server's configuration names them. Paths go
// through this checkout's node_modules as written (not resolved): the sandbox shows a folder at
// the path a configuration gives, so node finds the packages where it looks for them.
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
export const SUPPORT_DIR = __dirname;
/** tsx's loader by path: `--import tsx` would be looked up from the server's working folder, the workspace. */
export const TSX_LOADER = path.join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs');
/** The official filesystem server (devDependency @modelcontextprotocol/server-filesystem). */
export const FILESYSTEM_SERVER = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/** The hostile probe server of probe-server.ts; a single file, so the sandbox needs no folder for it. */
export function probeServer() {
  return { command: process.execPath, args: ['--import', TSX_LOADER, path.join(SUPPORT_DIR, 'probe-server.ts')] };
}
