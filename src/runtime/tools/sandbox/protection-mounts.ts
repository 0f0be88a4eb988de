import type { WorkspaceScan } from './workspace-scan';

/**
 * The mounts that keep protected paths (src/core/approvals/protected-paths.ts) read-only in a writable
 * workspace, for a call no person approved: every existing protected file or folder is bound read-only
 * onto itself. It cannot be written, and as a mount point it cannot be removed, renamed or replaced
 * either. A `.git` folder is protected whole, so nothing under it (config, commondir, hooks, the
 * rebase todo list) can be changed, and it cannot be renamed away for a planted one.
 *
 * Protected names that do not exist yet (a fresh `.env.local`, a `.pth` file) cannot be covered by a
 * mount without planting an empty file in every folder; the process runner removes those after the
 * command instead (see protectedChanges), before any other call can use them.
 */
export interface ProtectionMounts {
  readOnly: string[];
}

export function protectionMounts(scan: WorkspaceScan): ProtectionMounts {
  const readOnly: string[] = [];
  for (const [full, entry] of scan.protectedEntries) {
    // A bind onto a symlink would follow it; the sweep puts back a protected link a command changed.
    if (entry.kind === 'file' || entry.kind === 'dir') readOnly.push(full);
  }
  // Parents before children, so a bind never hides one made before it.
  return { readOnly: readOnly.sort() };
}
