import { constants, existsSync } from 'node:fs';
import { lchown, lstat, open, opendir, readdir, readlink } from 'node:fs/promises';
import * as path from 'node:path';
import { isProtectedPath } from '../../../core/approvals/protected-paths';
import { WorkspaceTooLargeError, WorkspaceUnreadableError } from './errors';

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
  /** Every folder named `.git` (each is also a protected entry: protection-mounts.ts binds it read-only whole). */
  gitDirs: string[];
  /** How many entries the walk saw (the workspace itself and hidden folders not counted). */
  entries: number;
}

export interface ScanOptions {
  /** Folders not to enter (other runs' folders: they are hidden from this command anyway). */
  hidden: readonly string[];
  /** When set, every entry not owned by it is handed to it (lchown), so a non-root command can write it. */
  owner?: { uid: number; gid: number } | undefined;
  /** The walk stops with WorkspaceTooLargeError past this many entries; unset, it walks them all. */
  maxEntries?: number | undefined;
  /** Told the count every PROGRESS_EVERY entries, so an activity can heartbeat while a large workspace is walked. */
  onProgress?: ((entries: number) => void) | undefined;
  /** Stops the walk (it rejects with the signal's reason) when the call is cancelled. */
  signal?: AbortSignal | undefined;
  /** How many folders may wait to be read (default SCAN_MAX_PENDING); tests lower it to reach the depth-first reads. */
  maxPending?: number;
}

/**
 * How many folders are read at once, each with one file operation in flight at a time. libuv runs
 * file operations on a pool of 4 threads shared by the whole worker: a walk that queued one lstat
 * per entry at once (as this one did, with Promise.all) held hundreds of thousands of requests, and
 * their promises, in front of every other run's file operations. With four, another run's read waits
 * behind one of the walk's operations at most.
 */
export const SCAN_CONCURRENCY = 4;

/**
 * A folder whose listing takes at most this many bytes on disk (its size) is read in one call; a
 * larger one (a folder of thousands of entries) is streamed a batch at a time, so no listing of
 * a huge folder is ever held whole.
 */
const SMALL_FOLDER_BYTES = 64 * 1024;

/**
 * The most folders the walk keeps waiting to be read. Past it (one folder holding a great many
 * folders), a walker reads a folder it finds at once, depth first, instead of remembering it.
 */
export const SCAN_MAX_PENDING = 10_000;

/** Errors that mean a folder is gone or was replaced since it was listed: nothing of it is left to check. */
const GONE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

/** AGENT_SCAN_MAX_ENTRIES unless set: a walk this long takes a second or two on an idle machine. */
export const DEFAULT_SCAN_MAX_ENTRIES = 100_000;

/** How often the walk reports progress and lets timers and other I/O of the worker run. */
export const PROGRESS_EVERY = 1_000;

/**
 * A folder still to read, whether it lies under a protected path (its contents are not listed then),
 * and which folder the walk saw there (absent for the workspace itself).
 */
interface PendingDir {
  dir: string;
  underProtected: boolean;
  seen?: { dev: number; ino: number };
}

/** Where the kernel shows a process's open files; without it (not Linux) the walk goes by path. */
const FD_FOLDER = '/proc/self/fd';
let fdFolderExists: boolean | undefined;

/**
 * Opens a folder the walk saw, and makes sure it still is that folder: not a symlink put in its
 * place since, not another folder a swapped parent leads to. The walk then reads it and reaches its
 * entries through the open descriptor (/proc/self/fd/N/name), so a root worker never follows a
 * link a command made into a lchown of a host file. Undefined when it is gone or not the same.
 */
async function pin(workspace: string, { dir, seen }: PendingDir): Promise<{ path: string; size: number; close(): Promise<void> } | undefined> {
  fdFolderExists ??= existsSync(FD_FOLDER);
  // The workspace itself is the caller's symlink-resolved path; every folder below is the walk's own find.
  const flags = constants.O_RDONLY | constants.O_DIRECTORY | (seen ? constants.O_NOFOLLOW : 0);
  const handle = await open(dir, flags).catch((error: NodeJS.ErrnoException) => {
    if (GONE.has(error.code ?? '')) return undefined;
    throw unreadable(workspace, dir, error);
  });
  if (!handle) return undefined;
  const stat = await handle.stat().catch(() => undefined);
  if (!stat || (seen && (stat.dev !== seen.dev || stat.ino !== seen.ino))) {
    await handle.close();
    return undefined;
  }
  return { path: fdFolderExists ? path.join(FD_FOLDER, String(handle.fd)) : dir, size: stat.size, close: () => handle.close() };
}

/** Unreadable is not gone: a folder the walk cannot look into could hold a protected path. */
function unreadable(workspace: string, dir: string, error: NodeJS.ErrnoException): WorkspaceUnreadableError {
  return new WorkspaceUnreadableError(path.relative(workspace, dir) || '.', error.code ?? error.message);
}

/** The names in a pinned folder: a small one in one read, a large one (or one whose size says nothing) streamed. */
async function* namesIn(workspace: string, dir: string, folder: { path: string; size: number }): AsyncGenerator<string> {
  const failed = (error: NodeJS.ErrnoException) => {
    throw unreadable(workspace, dir, error);
  };
  if (folder.size > 0 && folder.size <= SMALL_FOLDER_BYTES) {
    yield* await readdir(folder.path).catch(failed);
    return;
  }
  // The iterator closes the folder when the loop ends or throws.
  for await (const entry of await opendir(folder.path, { bufferSize: 128 }).catch(failed)) yield entry.name;
}

/**
 * Walks the workspace once, without following symlinks: finds the protected paths and `.git`
 * folders the sandbox must mount read-only, and hands what the worker (root) left behind to the
 * sandbox user. It streams: SCAN_CONCURRENCY walkers read folders (a large one a batch at a time),
 * so its memory is the folders still to read, not every entry, and it yields to the event
 * loop every PROGRESS_EVERY entries. Its time still grows with the workspace: `maxEntries` bounds it.
 */
export async function scanWorkspace(workspace: string, options: ScanOptions): Promise<WorkspaceScan> {
  const scan: WorkspaceScan = { protectedEntries: new Map(), gitDirs: [], entries: 0 };
  const hidden = new Set(options.hidden.map((p) => path.resolve(workspace, p)));
  const maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
  if (options.owner) await handOver(workspace, options.owner);
  const pending: PendingDir[] = [{ dir: workspace, underProtected: false }];
  let reading = 0;
  let wake: (() => void) | undefined;
  let failure: unknown;

  /** One entry of `dir`, reached through `pinned` (the open folder) for every file operation. */
  const visitEntry = async (dir: string, pinned: string, name: string, underProtected: boolean): Promise<void> => {
    const full = path.join(dir, name);
    const at = path.join(pinned, name);
    if (hidden.has(full)) return;
    scan.entries += 1;
    if (scan.entries > maxEntries) throw new WorkspaceTooLargeError(workspace, maxEntries);
    if (scan.entries % PROGRESS_EVERY === 0) {
      options.onProgress?.(scan.entries);
      // Promise callbacks alone never let timers (heartbeats) or the worker's other I/O run.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const stat = await lstat(at).catch(() => undefined);
    if (!stat) return;
    if (options.owner && (stat.uid !== options.owner.uid || stat.gid !== options.owner.gid)) await lchown(at, options.owner.uid, options.owner.gid).catch(() => undefined);
    const kind = stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other';
    const isProtected = !underProtected && (isProtectedPath(path.relative(workspace, full)) || (name === '.git' && kind !== 'dir'));
    if (isProtected) {
      const linkTarget = kind === 'symlink' ? await readlink(at).catch(() => undefined) : undefined;
      scan.protectedEntries.set(full, { kind, dev: stat.dev, ino: stat.ino, ...(linkTarget === undefined ? {} : { linkTarget }) });
    }
    if (kind === 'dir' && name === '.git') scan.gitDirs.push(full);
    if (kind === 'dir') {
      const folder = { dir: full, underProtected: underProtected || isProtected, seen: { dev: stat.dev, ino: stat.ino } };
      if (pending.length >= (options.maxPending ?? SCAN_MAX_PENDING)) return readDir(folder);
      pending.push(folder);
      wake?.();
    }
  };

  const readDir = async (next: PendingDir): Promise<void> => {
    // Removed meanwhile, replaced, or unreadable: nothing of it can be mounted or handed over.
    const pinned = await pin(workspace, next);
    if (!pinned) return;
    try {
      for await (const name of namesIn(workspace, next.dir, pinned)) {
        if (failure !== undefined) return;
        options.signal?.throwIfAborted();
        await visitEntry(next.dir, pinned.path, name, next.underProtected);
      }
    } finally {
      await pinned.close();
    }
  };

  const walker = async (): Promise<void> => {
    for (;;) {
      if (failure !== undefined) return;
      const next = pending.pop();
      if (next) {
        reading += 1;
        try {
          await readDir(next);
        } catch (error) {
          failure ??= error;
        } finally {
          reading -= 1;
          wake?.();
        }
        continue;
      }
      // Nothing to read: done when no walker can add more, else wait until one does or ends.
      if (reading === 0) return void wake?.();
      await new Promise<void>((resolve) => {
        const previous = wake;
        wake = () => {
          wake = undefined;
          previous?.();
          resolve();
        };
      });
    }
  };

  await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, walker));
  if (failure !== undefined) throw failure;
  scan.gitDirs.sort();
  return scan;
}

/** Hands one entry (not what a symlink points to) to `owner`, unless it is theirs already. */
export async function handOver(full: string, owner: { uid: number; gid: number }): Promise<void> {
  const stat = await lstat(full).catch(() => undefined);
  if (stat && (stat.uid !== owner.uid || stat.gid !== owner.gid)) await lchown(full, owner.uid, owner.gid).catch(() => undefined);
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
