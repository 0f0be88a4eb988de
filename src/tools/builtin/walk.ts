import { readdir } from 'node:fs/promises';
import * as path from 'node:path';

/** Folders no tool descends into: they are large and rarely what an agent is looking for. */
const SKIPPED = new Set(['.git', 'node_modules', '.temporal']);

export interface WalkEntry {
  absolute: string;
  isDirectory: boolean;
}

/**
 * Walks a folder breadth-first, yielding at most `limit` entries. Symlinks are listed but never
 * followed, so a link out of the workspace cannot drag the walk outside it.
 */
export async function* walk(root: string, recursive: boolean, limit: number, hidden: readonly string[] = []): AsyncGenerator<WalkEntry> {
  const queue = [root];
  let yielded = 0;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (yielded >= limit) return;
      const absolute = path.join(dir, entry.name);
      // Other runs' folders (per-run workspaces) are not this run's to see.
      if (hidden.includes(absolute)) continue;
      const isDirectory = entry.isDirectory();
      yielded += 1;
      yield { absolute, isDirectory };
      if (recursive && isDirectory && !SKIPPED.has(entry.name)) queue.push(absolute);
    }
  }
}
