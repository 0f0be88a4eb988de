import * as path from 'node:path';
import type { WorkspaceScan } from './workspace-scan';

/**
 * The mounts that keep protected paths (protected-paths.ts) read-only in a writable workspace, for
 * a call no person approved. Mounts can only cover what exists, so they do three things:
 * - `readOnly`: every existing protected file or folder is bound read-only onto itself. It cannot be
 *   written, and as a mount point it cannot be removed, renamed or replaced either.
 * - `pinned`: every `.git` folder is bound onto itself (still writable, so `git commit` works), so it
 *   cannot be renamed away and replaced by a folder holding a planted config.
 * - `emptyReadOnly`: a `.git` folder without `hooks/` or `info/` gets an empty read-only one, so no
 *   hook can be created fresh.
 * Protected names that do not exist yet anywhere else (a fresh `.env.local`, a `.npmrc`) cannot be
 * covered by a mount without planting an empty file in every folder; the process runner removes
 * those after the command instead (see protectedChanges), before any other call can use them.
 */
export interface ProtectionMounts {
  pinned: string[];
  readOnly: string[];
  emptyReadOnly: string[];
}

const GIT_FOLDERS = ['hooks', 'info'] as const;

export function protectionMounts(scan: WorkspaceScan): ProtectionMounts {
  const readOnly: string[] = [];
  for (const [full, entry] of scan.protectedEntries) {
    // A bind onto a symlink would follow it; the sweep puts back a protected link a command changed.
    if (entry.kind === 'file' || entry.kind === 'dir') readOnly.push(full);
  }
  const emptyReadOnly = scan.gitDirs.flatMap((dir) =>
    GIT_FOLDERS.map((name) => path.join(dir, name)).filter((p) => !scan.protectedEntries.has(p)),
  );
  // Parents before children, so a bind never hides one made before it.
  return { pinned: [...scan.gitDirs], readOnly: readOnly.sort(), emptyReadOnly };
}
