import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { McpServerStartError } from '../../contract/errors';
import { findExecutable } from '../tools/sandbox/find-executable';
import { DEFAULT_TOOL_PATH } from '../tools/sandbox/tool-environment';
import { isInside } from '../tools/workspace';
import type { McpFolder } from './mcp-server-config';

/** A host path a sandboxed server sees at the same path. */
export interface Bind {
  path: string;
  writable: boolean;
}

/**
 * One of a server's `folders`, resolved against the workspace root. It is shown at the path as
 * written (bwrap follows symlinks to the source), so a script finds `node_modules` where it looks.
 * A folder that does not exist, is not a folder, or is the whole host is a configuration error
 * named by its place in the file, and so is a folder in the workspace that a symlink leads out of
 * it: anyone who can write the workspace could otherwise point the server at the host.
 */
export function resolveFolder(folder: McpFolder, workspace: string, where: string): Bind & { real: string } {
  const absolute = path.resolve(workspace, folder.path);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch (error) {
    throw new McpServerStartError(
      `${where}: ${absolute} cannot be given to the sandboxed server (${(error as NodeJS.ErrnoException).code ?? String(error)}). ` +
        `Create it, or fix the path (relative paths start at the workspace root, ${workspace}).`,
    );
  }
  if (!statSync(real).isDirectory()) throw new McpServerStartError(`${where}: ${absolute} is not a folder; folders lists folders the server may see.`);
  if (real === path.parse(real).root) {
    throw new McpServerStartError(`${where}: "${folder.path}" is the whole host, which is no sandbox; name the folders the server needs, or set sandbox: false to run it unsandboxed, knowingly.`);
  }
  if (isInside(workspace, absolute) && !isInside(workspace, real)) {
    throw new McpServerStartError(`${where}: ${absolute} is in the workspace but leads to ${real}, outside it, through a symlink; name ${real} itself if the server should see it.`);
  }
  return { path: absolute, real, writable: folder.writable };
}

/**
 * The server's program as an absolute path: a name is looked up on the server's PATH (as bwrap
 * would, but on the host, so that it can be made visible), a path is taken from the working folder.
 */
export function resolveProgram(command: string, cwd: string, searchPath: string | undefined, where: string): string {
  if (command.includes('/')) return path.resolve(cwd, command);
  const found = findExecutable(command, searchPath || DEFAULT_TOOL_PATH);
  if (!found) throw new McpServerStartError(`${where}: the program "${command}" was not found on PATH (${searchPath || DEFAULT_TOOL_PATH}) (ENOENT). Install it, or give its absolute path.`);
  return found;
}

/**
 * What a server's program needs to be visible, read-only: the program, and every argument that
 * names an existing file (a script). A file inside a `node_modules` folder brings that whole
 * folder, the outermost one on its path, because a package loads its dependencies from beside it.
 * Arguments that name folders bring nothing: a folder the server should see belongs in `folders`,
 * and a server's own list of allowed folders is exactly what the sandbox must not take on trust.
 * Paths already visible (system folders, the server's folders) are left out.
 */
export function programBinds(candidates: readonly string[], cwd: string, visible: readonly string[]): Bind[] {
  const binds = new Map<string, Bind>();
  for (const candidate of candidates) {
    const absolute = path.resolve(cwd, candidate);
    if (!isFile(absolute)) continue;
    const bind = outermostNodeModules(absolute) ?? absolute;
    if (!visible.some((v) => isInside(v, bind)) && ![...binds.keys()].some((b) => isInside(b, bind))) binds.set(bind, { path: bind, writable: false });
  }
  return [...binds.values()];
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** `/srv/app/node_modules` for `/srv/app/node_modules/pkg/node_modules/dep/index.js`; undefined outside one. */
function outermostNodeModules(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.indexOf('node_modules');
  return at > 0 ? parts.slice(0, at + 1).join(path.sep) : undefined;
}
