// A file with more than one hard link is the same file under another name, and that name may be
// anywhere on the filesystem: a host file, or another run's folder (issue 18, bypass 9). Such a file
// is readable only when every one of its links is found inside this run's own workspace (outside the
// folders hidden from it); writing one is always refused (write-file-safely.ts).
import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { FileRefusedError } from './file-errors';
import { inFolder, type OpenFolder, type SafeWorkspace } from './safe-open';

/** Entries looked at before giving up on finding every link: the census must stay quick. */
const MAX_CENSUS_ENTRIES = 20_000;

/** Counts, per `dev:ino`, the names of multi-link files found inside the workspace (hidden folders skipped). */
export class LinkCensus {
  private counts: Map<string, number> | undefined;
  private complete = true;

  constructor(private readonly workspace: SafeWorkspace) {}

  /** Throws unless every link of `stats` (a multi-link file) lies in this workspace. */
  async requireOwnLinks(stats: Stats, requested: string): Promise<void> {
    if (stats.nlink <= 1) return;
    this.counts ??= await this.take();
    const found = this.counts.get(`${stats.dev}:${stats.ino}`) ?? 0;
    if (found >= stats.nlink) return;
    const why = this.complete ? 'another of its names lies outside this run\'s workspace' : `the workspace is too large (over ${MAX_CENSUS_ENTRIES} entries) to find all its names`;
    throw new FileRefusedError(
      `"${requested}" has ${stats.nlink} hard links and ${why}, so reading it could show a file this run may not see. Copy the content into a new file with a command instead.`,
    );
  }

  private async take(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const ws = this.workspace;
    const stack: OpenFolder[] = [ws.rootFolder];
    let seen = 0;
    while (stack.length > 0) {
      const folder = stack.pop() as OpenFolder;
      const names = await readdir(inFolder(folder, '')).catch(() => [] as string[]);
      for (const name of names) {
        if (++seen > MAX_CENSUS_ENTRIES) {
          this.complete = false;
          return counts;
        }
        const real = path.join(folder.realPath, name);
        if (ws.hidden.some((h) => real === h)) continue;
        const stats = await lstat(inFolder(folder, name)).catch(() => undefined);
        if (stats?.isDirectory()) {
          const child = await ws.openChildFolder(folder, name, name).catch(() => undefined);
          if (child) stack.push(child);
        } else if (stats && stats.nlink > 1) {
          const key = `${stats.dev}:${stats.ino}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
      if (folder !== ws.rootFolder) await ws.release(folder.handle);
    }
    return counts;
  }
}
