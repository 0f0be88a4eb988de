// Reads the file a `write_file` call would replace, so the console can show a diff. The console may
// not share a filesystem with the worker: it reads only when it was given the workspace
// (`--workspace` / AGENT_WORKSPACE), and says so when it could not, rather than guessing.
import { existsSync, realpathSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { folderName, RUNS_FOLDER } from '../../activities/run-tool';
import { resolveInWorkspace } from '../../tools/workspace';

/** Larger files are not diffed: the page would be unreadable and the diff slow. */
export const MAX_DIFF_BYTES = 256 * 1024;

export type CurrentFile =
  | { kind: 'file'; content: string }
  | { kind: 'absent' }
  | { kind: 'unavailable'; why: string };

/**
 * The current content of `requested` in the run's workspace. A per-run workspace
 * (`<root>/runs/<workflowId>`) is used when it exists, else the shared root, whose `runs` folder is
 * never looked into; paths are confined exactly as the worker's tools confine them.
 */
export async function readWorkspaceFile(workspace: string | undefined, workflowId: string, requested: string): Promise<CurrentFile> {
  if (!workspace) return { kind: 'unavailable', why: 'the console was not given the workspace (--workspace or AGENT_WORKSPACE)' };
  if (!existsSync(workspace)) return { kind: 'unavailable', why: `the workspace ${workspace} is not on this machine` };
  const root = realpathSync(workspace);
  const own = path.join(root, RUNS_FOLDER, folderName(workflowId));
  const [base, hidden] = existsSync(own) ? [own, []] : [root, [path.join(root, RUNS_FOLDER)]];
  let absolute: string;
  try {
    absolute = resolveInWorkspace(base, requested, hidden);
  } catch (error) {
    return { kind: 'unavailable', why: (error as Error).message };
  }
  try {
    const info = await stat(absolute);
    if (!info.isFile()) return { kind: 'unavailable', why: `${requested} is not a regular file` };
    if (info.size > MAX_DIFF_BYTES) return { kind: 'unavailable', why: `${requested} is ${info.size} bytes, too large to diff here` };
    return { kind: 'file', content: await readFile(absolute, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'unavailable', why: (error as Error).message };
  }
}
