// Reads the file a `write_file` call would replace, so the console can show a diff. The console may
// not share a filesystem with the worker: it reads only when it was given the workspace
// (`--workspace` / AGENT_WORKSPACE), and says so when it could not, rather than guessing.
import { existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { folderName, RUNS_FOLDER } from '../../runtime/activities/run-tool';
import { LinkCensus } from '../../runtime/tools/hard-links';
import { openForRead } from '../../runtime/tools/safe-file';
import { SafeWorkspace } from '../../runtime/tools/safe-open';

/** Larger files are not diffed: the page would be unreadable and the diff slow. */
export const MAX_DIFF_BYTES = 256 * 1024;

export type CurrentFile =
  | { kind: 'file'; content: string }
  | { kind: 'absent' }
  | { kind: 'unavailable'; why: string };

/**
 * The current content of `requested` in the run's workspace. A per-run workspace
 * (`<root>/runs/<workflowId>`) is used when it exists, else the shared root, whose `runs` folder is
 * never looked into; the file is opened exactly as the worker's tools open it (safe-open.ts).
 */
export async function readWorkspaceFile(workspace: string | undefined, workflowId: string, requested: string): Promise<CurrentFile> {
  if (!workspace) return { kind: 'unavailable', why: 'the console was not given the workspace (--workspace or AGENT_WORKSPACE)' };
  if (!existsSync(workspace)) return { kind: 'unavailable', why: `the workspace ${workspace} is not on this machine` };
  const root = realpathSync(workspace);
  const own = path.join(root, RUNS_FOLDER, folderName(workflowId));
  // Not realpath-ed: a per-run folder replaced by a symlink must fail SafeWorkspace.open, not be followed.
  const [base, hidden] = existsSync(own) ? [own, []] : [root, [path.join(root, RUNS_FOLDER)]];
  let ws: SafeWorkspace | undefined;
  try {
    ws = await SafeWorkspace.open(base, hidden);
    const resolved = await ws.resolve(requested);
    if (!resolved.stats) return { kind: 'absent' };
    if (resolved.name === null || !resolved.stats.isFile()) return { kind: 'unavailable', why: `${requested} is not a regular file` };
    if (resolved.stats.size > MAX_DIFF_BYTES) return { kind: 'unavailable', why: `${requested} is ${resolved.stats.size} bytes, too large to diff here` };
    const file = await openForRead(ws, resolved, requested, new LinkCensus(ws));
    if (file.stats.size > MAX_DIFF_BYTES) return { kind: 'unavailable', why: `${requested} is ${file.stats.size} bytes, too large to diff here` };
    return { kind: 'file', content: await file.handle.readFile('utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'unavailable', why: (error as Error).message };
  } finally {
    await ws?.close();
  }
}
