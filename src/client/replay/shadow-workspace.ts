import { chmod, cp, lstat, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { copyable } from '../../runtime/activities/copy-workspace';
import { folderName, RUNS_FOLDER } from '../../runtime/activities/run-tool';

/** Takes write permission away (or gives it back) on everything under `root`, links left alone. */
async function setWritable(root: string, writable: boolean): Promise<void> {
  const kind = await lstat(root).catch(() => undefined);
  if (!kind || kind.isSymbolicLink()) return;
  if (kind.isDirectory()) {
    // Going read-only, a folder's entries are changed before the folder itself; going back, after.
    if (writable) await chmod(root, 0o755);
    for (const entry of await readdir(root)) await setWritable(path.join(root, entry), writable);
    if (!writable) await chmod(root, 0o555);
  } else await chmod(root, writable ? 0o644 : 0o444);
}

export interface ShadowWorkspaceSource {
  /** The original worker's workspace root (AGENT_WORKSPACE); none leaves the copy empty. */
  root?: string;
  mode: 'shared' | 'per-run';
  originalId: string;
  shadowId: string;
}

/**
 * A throwaway copy of the original run's workspace, as it is now, for the shadow's read-only calls
 * that match no recorded call: the whole shared workspace (without other runs' folders), or the run's
 * own folder under `runs/` renamed for the shadow. Copied by the replay driver, never reached by the
 * shadow's tools in place; made read-only after the copy. Only folders, files and links are copied.
 * Returns the root the shadow's tools get.
 */
export async function copyWorkspaceForShadow(source: ShadowWorkspaceSource): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'replay-lab-ws-'));
  const from = source.root && (source.mode === 'shared' ? source.root : path.join(source.root, RUNS_FOLDER, folderName(source.originalId)));
  const to = source.mode === 'shared' ? root : path.join(root, RUNS_FOLDER, folderName(source.shadowId));
  await mkdir(to, { recursive: true });
  const exists = from ? await stat(from).then((s) => s.isDirectory(), () => false) : false;
  if (from && exists) {
    const runs = path.join(from, RUNS_FOLDER);
    await cp(from, to, { recursive: true, force: true, verbatimSymlinks: true, filter: async (file) => file !== runs && (await copyable(file)) });
  }
  await setWritable(to, false);
  return root;
}

/** Removes a copy made by copyWorkspaceForShadow (giving write permission back first, so a non-root user can). */
export async function removeShadowWorkspace(root: string): Promise<void> {
  await setWritable(root, true).catch(() => undefined);
  await rm(root, { recursive: true, force: true });
}
