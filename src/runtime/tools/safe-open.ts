// Resolves and opens a workspace path in one step, so nothing can swap a folder for a symlink between
// the check and the open (issue 18, bypass 8). Node has no openat/openat2, so every component is
// opened relative to the already-open, already-verified folder through its magic link
// `/proc/self/fd/<fd>/<name>`: the kernel resolves that link to the open folder itself, never by path
// again. Each component is opened with O_NOFOLLOW; a symlink is read and followed here, one component
// at a time, only while it stays in the workspace. Every opened descriptor's real path
// (`/proc/self/fd/<fd>`) is checked to lie in the workspace and outside other runs' folders, so the
// hidden-folder check runs on the resolved path (bypass 7), not on the path as written.
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { WorkspaceEscapeError } from '../../contract/errors';
import { FileRefusedError } from './file-errors';
import { displayPath, isInside } from './workspace';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
/** O_NONBLOCK everywhere: a FIFO swapped in after the lstat check can never park a thread-pool thread. */
export const FOLDER_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;
/** Symlinks followed, and retries after a component changed under us, before a path is refused. */
const MAX_STEPS = 40;
/** Folders one write may create (and create again, if something keeps removing them). */
const MAX_FOLDERS_MADE = 1_000;

/** An open folder whose real path was checked to lie in the workspace. */
export interface OpenFolder {
  handle: FileHandle;
  realPath: string;
}

/** Where a path ended: its open parent folder and last name (null for the root itself), and what is there now. */
export interface ResolvedPath {
  folder: OpenFolder;
  name: string | null;
  /** lstat of the last component; undefined when it does not exist (yet). */
  stats: Stats | undefined;
  /** Workspace-relative, forward slashes, symlinks resolved: what the model sees and protected paths match. */
  relative: string;
}

export interface ResolveOptions {
  /** Create missing folders on the way (write_file); the last component is never created here. */
  createFolders?: boolean;
  /** Owner for folders created on the way (ToolContext.fileOwner). */
  fileOwner?: { uid: number; gid: number };
}

/** The magic-link path of `name` inside an open folder: resolved by the kernel through the descriptor. */
export function inFolder(folder: OpenFolder, name: string): string {
  return `/proc/self/fd/${folder.handle.fd}/${name}`;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * One tool call's view of the workspace. Every descriptor it opens is closed by `close()`; call it in
 * a `finally`.
 */
export class SafeWorkspace {
  private readonly opened = new Set<FileHandle>();

  private constructor(
    readonly root: string,
    readonly hidden: readonly string[],
    readonly rootFolder: OpenFolder,
  ) {}

  /** Opens the workspace root (already symlink-resolved by the worker) and checks it is what it says. */
  static async open(root: string, hidden: readonly string[] = []): Promise<SafeWorkspace> {
    const handle = await open(root, FOLDER_FLAGS).catch((error: unknown) => {
      if (code(error) === 'ELOOP' || code(error) === 'ENOTDIR') {
        throw new WorkspaceEscapeError(`The workspace root ${root} is not a folder (a symbolic link or a file was put in its place); refusing to use it.`);
      }
      throw error;
    });
    const realPath = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (realPath === undefined) {
      await handle.close();
      throw new FileRefusedError('The file tools need /proc (Linux) to open workspace paths safely, and /proc/self/fd cannot be read here. Mount /proc for the worker.');
    }
    if (realPath !== root) {
      await handle.close();
      throw new WorkspaceEscapeError(`The workspace root ${root} is not a plain folder (it resolves to ${realPath}); refusing to use it.`);
    }
    const workspace = new SafeWorkspace(root, hidden, { handle, realPath });
    workspace.opened.add(handle);
    return workspace;
  }

  async close(): Promise<void> {
    await Promise.all([...this.opened].map((h) => h.close().catch(() => undefined)));
    this.opened.clear();
  }

  /** Tracks a descriptor opened by a caller so `close()` closes it too. */
  track(handle: FileHandle): FileHandle {
    this.opened.add(handle);
    return handle;
  }

  async release(handle: FileHandle): Promise<void> {
    this.opened.delete(handle);
    await handle.close().catch(() => undefined);
  }

  /**
   * Throws unless an open descriptor's real path is in the workspace and outside hidden folders.
   * Returns that real path. A deleted file or folder has none and is refused too.
   */
  async verify(handle: FileHandle, requested: string): Promise<string> {
    const real = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => '');
    if (!real.startsWith('/') || real.endsWith(' (deleted)')) {
      throw new FileRefusedError(`Path "${requested}" changed while it was being opened; try again.`);
    }
    this.refuseHidden(real, requested);
    if (real !== this.root && !isInside(this.root, real)) {
      throw new WorkspaceEscapeError(`Path "${requested}" resolves to ${real}, outside the workspace; it is refused.`);
    }
    return real;
  }

  refuseHidden(real: string, requested: string): void {
    if (this.hidden.some((h) => real === h || isInside(h, real))) {
      throw new WorkspaceEscapeError(`Path "${requested}" belongs to another run's workspace; this run cannot see it.`);
    }
  }

  /** Opens `name` in `folder` as a folder, without following a symlink; undefined if it is none. */
  async openChildFolder(folder: OpenFolder, name: string, requested: string): Promise<OpenFolder | undefined> {
    let handle: FileHandle;
    try {
      handle = this.track(await open(inFolder(folder, name), FOLDER_FLAGS));
    } catch (error) {
      if (['ELOOP', 'ENOTDIR', 'ENOENT'].includes(code(error) ?? '')) return undefined;
      throw error;
    }
    try {
      return { handle, realPath: await this.verify(handle, requested) };
    } catch (error) {
      await this.release(handle);
      throw error;
    }
  }

  /**
   * Walks `requested` component by component from the root. Symlinks are followed by reading them
   * and walking their target the same way, only while it stays in the workspace; `..` steps back to
   * the folder already open above. The last component is lstat-ed, not opened: the caller opens it
   * with the flags its operation needs (`openForRead`, `writeResolved` in safe-file.ts).
   */
  async resolve(requested: string, options: ResolveOptions = {}): Promise<ResolvedPath> {
    const target = path.resolve(this.root, requested);
    if (!isInside(this.root, target)) {
      throw new WorkspaceEscapeError(
        `Path "${requested}" is outside the workspace (${this.root}). Use a path relative to the workspace root, without ".." leaving it.`,
      );
    }
    const pending = splitPath(path.relative(this.root, target));
    const stack: OpenFolder[] = [this.rootFolder];
    let steps = 0;
    let made = 0;
    while (pending.length > 0) {
      const name = pending.shift() as string;
      const folder = stack.at(-1) as OpenFolder;
      if (name === '..') {
        if (stack.length === 1) throw new WorkspaceEscapeError(`Path "${requested}" goes through a symbolic link that leaves the workspace; it is refused.`);
        stack.pop();
        continue;
      }
      const stats = await lstat(inFolder(folder, name)).catch((error: unknown) => {
        if (code(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (stats?.isSymbolicLink()) {
        if (++steps > MAX_STEPS) throw new FileRefusedError(`Path "${requested}" goes through more than ${MAX_STEPS} symbolic links; it is refused.`);
        const link = await readlink(inFolder(folder, name)).catch(() => undefined);
        if (link === undefined) {
          pending.unshift(name); // Replaced since the lstat: look again (counted, so it cannot loop forever).
          continue;
        }
        if (path.isAbsolute(link)) {
          const absolute = path.resolve(link);
          if (absolute !== this.root && !isInside(this.root, absolute)) {
            throw new WorkspaceEscapeError(`Path "${requested}" resolves through a symbolic link to ${absolute}, outside the workspace; it is refused.`);
          }
          stack.splice(1);
          pending.unshift(...splitPath(path.relative(this.root, absolute)));
        } else {
          pending.unshift(...splitPath(link));
        }
        continue;
      }
      if (pending.length === 0) {
        if (stats) this.refuseHidden(path.join(folder.realPath, name), requested);
        return { folder, name, stats, relative: displayPath(this.root, path.join(folder.realPath, name)) };
      }
      if (!stats) {
        if (!options.createFolders) return { folder, name, stats, relative: displayPath(this.root, path.join(folder.realPath, name, ...pending)) };
        if (++made > MAX_FOLDERS_MADE) throw new FileRefusedError(`Path "${requested}" kept changing while its folders were being made; try again.`);
        await this.makeFolder(folder, name, options.fileOwner);
        pending.unshift(name);
        continue;
      }
      const child = await this.openChildFolder(folder, name, requested);
      if (!child) {
        if (!stats.isDirectory()) throw new FileRefusedError(`Path "${requested}": ${displayPath(this.root, path.join(folder.realPath, name))} is not a folder.`);
        if (++steps > MAX_STEPS) throw new FileRefusedError(`Path "${requested}" kept changing while it was being opened; try again.`);
        pending.unshift(name); // Swapped for a symlink between the lstat and the open: look again.
        continue;
      }
      stack.push(child);
    }
    const folder = stack.at(-1) as OpenFolder;
    return { folder, name: null, stats: await folder.handle.stat(), relative: displayPath(this.root, folder.realPath) };
  }

  /** Resolves a path that must be a folder and opens it. Undefined when nothing is there. */
  async openFolder(requested: string): Promise<OpenFolder | 'not-a-folder' | undefined> {
    const resolved = await this.resolve(requested);
    if (resolved.name === null) return resolved.folder;
    if (!resolved.stats) return undefined;
    if (!resolved.stats.isDirectory()) return 'not-a-folder';
    return (await this.openChildFolder(resolved.folder, resolved.name, requested)) ?? undefined;
  }

  /**
   * Opens a folder by its real path in the workspace (as a walk found it), following no symlink at
   * all: each component is opened with O_NOFOLLOW from the one before. Undefined if anything on the
   * way is no longer a folder.
   */
  async openFolderNoFollow(realPath: string): Promise<OpenFolder | undefined> {
    let folder = this.rootFolder;
    for (const name of splitPath(path.relative(this.root, realPath))) {
      const child = await this.openChildFolder(folder, name, displayPath(this.root, realPath)).catch(() => undefined);
      if (folder !== this.rootFolder) await this.release(folder.handle);
      if (!child) return undefined;
      folder = child;
    }
    return folder;
  }

  private async makeFolder(folder: OpenFolder, name: string, owner: ResolveOptions['fileOwner']): Promise<void> {
    try {
      // mkdir never follows a symlink in its last component: a link planted here makes it fail with EEXIST.
      await mkdir(inFolder(folder, name));
    } catch (error) {
      if (code(error) === 'EEXIST') return;
      throw error;
    }
    if (!owner) return;
    const created = await this.openChildFolder(folder, name, name);
    if (created) {
      await created.handle.chown(owner.uid, owner.gid);
      await this.release(created.handle);
    }
  }
}

function splitPath(relative: string): string[] {
  return relative.split('/').filter((part) => part !== '' && part !== '.');
}
