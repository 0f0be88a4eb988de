import { lchown, lstat, readdir, readlink } from 'node:fs/promises';
import * as path from 'node:path';
import { isProtectedPath } from '../../../core/approvals/protected-paths';

/** One protected path found in the workspace (the topmost: a protected folder's contents are not listed). */
export interface ProtectedEntry {
  kind: 'file' | 'dir' | 'symlink' | 'other';
  dev: number;
  ino: number;
  /** A symlink's target, so the sweep can put back a link a command removed. */
  linkTarget?: string;
}

export interface WorkspaceScan {
  /** Absolute path to entry, for every topmost protected path (and every `.git` that is a file). */
  protectedEntries: Map<string, ProtectedEntry>;
  /** Every folder named `.git`: pinned in place, its hooks and info folders made read-only. */
  gitDirs: string[];
}

export interface ScanOptions {
  /** Folders not to enter (other runs' folders: they are hidden from this command anyway). */
  hidden: readonly string[];
  /** When set, every entry not owned by it is handed to it (lchown), so a non-root command can write it. */
  owner?: { uid: number; gid: number } | undefined;
}

/**
 * Walks the workspace once, without following symlinks: finds the protected paths and `.git`
 * folders the sandbox must mount read-only, and hands what the worker (root) left behind to the
 * sandbox user. It takes one lstat per entry, so its cost grows with the workspace.
 */
export async function scanWorkspace(workspace: string, options: ScanOptions): Promise<WorkspaceScan> {
  const scan: WorkspaceScan = { protectedEntries: new Map(), gitDirs: [] };
  const hidden = new Set(options.hidden.map((p) => path.resolve(workspace, p)));
  if (options.owner) await ownEntry(workspace, options.owner);
  const visit = async (dir: string, underProtected: boolean): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return; // Removed meanwhile, or unreadable: nothing of it can be mounted.
    }
    await Promise.all(
      names.map(async (name) => {
        const full = path.join(dir, name);
        if (hidden.has(full)) return;
        const stat = await lstat(full).catch(() => undefined);
        if (!stat) return;
        if (options.owner && (stat.uid !== options.owner.uid || stat.gid !== options.owner.gid)) await ownEntry(full, options.owner);
        const kind = stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other';
        const isProtected = !underProtected && (isProtectedPath(path.relative(workspace, full)) || (name === '.git' && kind !== 'dir'));
        if (isProtected) {
          const linkTarget = kind === 'symlink' ? await readlink(full).catch(() => undefined) : undefined;
          scan.protectedEntries.set(full, { kind, dev: stat.dev, ino: stat.ino, ...(linkTarget === undefined ? {} : { linkTarget }) });
        }
        if (kind === 'dir' && name === '.git') scan.gitDirs.push(full);
        if (kind === 'dir') await visit(full, underProtected || isProtected);
      }),
    );
  };
  await visit(workspace, false);
  scan.gitDirs.sort();
  return scan;
}

async function ownEntry(full: string, owner: { uid: number; gid: number }): Promise<void> {
  await lchown(full, owner.uid, owner.gid).catch(() => undefined);
}

/**
 * The protected paths a command left that were not there before it ran, or that are another file
 * now: a fresh `.env.local`, a `.git` folder renamed into place, a replaced symlink. A call that no
 * person approved may not leave them; the caller removes them. Also lists protected symlinks the
 * command removed, which the caller puts back.
 */
export function protectedChanges(before: WorkspaceScan, after: WorkspaceScan): { added: string[]; removedLinks: Array<[string, string]> } {
  const added: string[] = [];
  for (const [full, entry] of after.protectedEntries) {
    const old = before.protectedEntries.get(full);
    if (!old || !sameEntry(old, entry)) added.push(full);
  }
  const removedLinks: Array<[string, string]> = [];
  for (const [full, entry] of before.protectedEntries) {
    const now = after.protectedEntries.get(full);
    if (entry.linkTarget !== undefined && (!now || !sameEntry(entry, now))) removedLinks.push([full, entry.linkTarget]);
  }
  return { added, removedLinks };
}

/** The same file: a removed file's inode number is often reused at once, so kind and link target count too. */
function sameEntry(a: ProtectedEntry, b: ProtectedEntry): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.kind === b.kind && a.linkTarget === b.linkTarget;
}
