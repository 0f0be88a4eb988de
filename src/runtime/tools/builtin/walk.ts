import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { inFolder, type OpenFolder, type SafeWorkspace } from '../safe-open';
import { displayPath } from '../workspace';

/** Folders no tool descends into: they are large and rarely what an agent is looking for. */
const SKIPPED = new Set(['.git', 'node_modules', '.temporal']);

export interface WalkEntry {
  /** The open folder the entry is in, valid until the walk moves on: open the entry through it. */
  folder: OpenFolder;
  name: string;
  /** Workspace-relative path with forward slashes, as the model sees it. */
  relative: string;
  isDirectory: boolean;
}

/**
 * Walks a folder breadth-first, yielding at most `limit` entries. Each folder is read through its own
 * verified descriptor and each sub-folder opened with O_NOFOLLOW from its parent's, so a symlink is
 * listed but never followed and a folder swapped for one mid-walk cannot drag the walk outside the
 * workspace. Other runs' folders (per-run workspaces) are skipped.
 */
export async function* walk(ws: SafeWorkspace, start: OpenFolder, recursive: boolean, limit: number): AsyncGenerator<WalkEntry> {
  // Folders waiting their turn are kept as real paths, not descriptors, so a wide tree cannot exhaust them.
  const queue: (OpenFolder | string)[] = [start];
  let yielded = 0;
  while (queue.length > 0) {
    const next = queue.shift() as OpenFolder | string;
    const folder = typeof next === 'string' ? await ws.openFolderNoFollow(next) : next;
    if (!folder) continue;
    try {
      const entries = await readdir(inFolder(folder, ''), { withFileTypes: true }).catch(() => []);
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        if (yielded >= limit) return;
        const real = path.join(folder.realPath, entry.name);
        if (ws.hidden.includes(real)) continue;
        const isDirectory = entry.isDirectory();
        yielded += 1;
        yield { folder, name: entry.name, relative: displayPath(ws.root, real), isDirectory };
        if (recursive && isDirectory && !SKIPPED.has(entry.name)) queue.push(real);
      }
    } finally {
      if (folder !== start && folder !== ws.rootFolder) await ws.release(folder.handle);
    }
  }
}
