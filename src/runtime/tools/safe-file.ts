// Opening the last component of a resolved workspace path, for reading or writing. Special files
// (FIFOs, sockets, devices) are refused on the lstat before the open and again on the fstat after it;
// the open itself is O_NONBLOCK | O_NOFOLLOW, so a FIFO swapped in between cannot block a libuv
// thread-pool thread and a symlink swapped in is not followed. Reads and writes then use only the
// verified descriptor.
import { constants, type Stats } from 'node:fs';
import { lstat, open, unlink, type FileHandle } from 'node:fs/promises';
import { FileRefusedError } from './file-errors';
import type { LinkCensus } from './hard-links';
import { inFolder, type ResolvedPath, type SafeWorkspace } from './safe-open';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Throws unless `stats` is a regular file: file tools never open anything else. */
export function requireRegular(stats: Stats, requested: string): void {
  if (stats.isFile()) return;
  throw new FileRefusedError(`"${requested}" is ${kindOf(stats)}, not a regular file; file tools only open regular files.`);
}

/** An open, verified regular file, with its fstat. */
export interface OpenedFile {
  handle: FileHandle;
  stats: Stats;
}

/**
 * Opens a resolved, existing path for reading. A multi-link file is refused unless all its links
 * are in this workspace (`census`).
 */
export async function openForRead(ws: SafeWorkspace, resolved: ResolvedPath, requested: string, census: LinkCensus): Promise<OpenedFile> {
  const { folder, name, stats } = resolved;
  if (name === null || !stats) throw new FileRefusedError(`"${requested}" is not a file.`);
  requireRegular(stats, requested);
  const handle = await openVerified(ws, inFolder(folder, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK, requested);
  const opened = await handle.stat();
  await census.requireOwnLinks(opened, requested);
  return { handle, stats: opened };
}

async function openVerified(ws: SafeWorkspace, where: string, flags: number, requested: string, mode?: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = ws.track(await open(where, flags, mode));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENXIO') throw new FileRefusedError(`"${requested}" changed while it was being opened (now a symbolic link or a special file); it is refused.`);
    throw error;
  }
  try {
    requireRegular(await handle.stat(), requested);
    await ws.verify(handle, requested);
    return handle;
  } catch (error) {
    // Only reachable if the verified folder was moved out of the workspace after its check (which needs
    // write access outside it, as no sandboxed command has): take back the file just created there,
    // if the name still is that file (not one renamed over it since).
    if (flags & O_CREAT) await removeIfSame(handle, where);
    await ws.release(handle);
    throw error;
  }
}

async function removeIfSame(handle: FileHandle, where: string): Promise<void> {
  const [ours, there] = await Promise.all([handle.stat().catch(() => undefined), lstat(where).catch(() => undefined)]);
  if (ours && there && ours.nlink > 0 && ours.dev === there.dev && ours.ino === there.ino) await unlink(where).catch(() => undefined);
}

export interface WriteOptions {
  append?: boolean;
  fileOwner?: { uid: number; gid: number };
}

/**
 * Writes `content` to a resolved path whose folder exists. An existing file is opened without O_TRUNC
 * and emptied only after its descriptor was verified; a new one is created with O_CREAT | O_EXCL |
 * O_NOFOLLOW in the verified folder, so nothing outside the workspace is ever created or truncated.
 * A file with more than one hard link is refused: writing it would change the file under its other names.
 */
export async function writeResolved(ws: SafeWorkspace, resolved: ResolvedPath, requested: string, content: string, options: WriteOptions): Promise<void> {
  const { folder, name, stats } = resolved;
  if (name === null) throw new FileRefusedError(`"${requested}" is a folder; give a file name.`);
  if (stats) requireRegular(stats, requested);
  const where = inFolder(folder, name);
  const base = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | (options.append ? O_APPEND : 0);
  let handle: FileHandle | undefined;
  let created = false;
  for (let attempt = 0; !handle && attempt < 5; attempt++) {
    try {
      handle = await openVerified(ws, where, base, requested);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      try {
        handle = await openVerified(ws, where, base | O_CREAT | O_EXCL, requested, 0o644);
        created = true;
      } catch (createError) {
        // Someone created it between the two opens: open it as an existing file on the next turn.
        if ((createError as NodeJS.ErrnoException).code !== 'EEXIST') throw createError;
      }
    }
  }
  if (!handle) throw new FileRefusedError(`"${requested}" kept changing while it was being opened; try again.`);
  try {
    const opened = await handle.stat();
    if (opened.nlink > 1) {
      throw new FileRefusedError(
        `"${requested}" has ${opened.nlink} hard links; writing it would also change the same file under its other names, so it is refused. Write a new file instead.`,
      );
    }
    if (created && options.fileOwner) await handle.chown(options.fileOwner.uid, options.fileOwner.gid);
    if (!options.append && !created) await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
  } finally {
    await ws.release(handle);
  }
}
