import { cp, lstat, mkdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import type { ActivityDeps } from './activity-deps';
import { folderName, RUNS_FOLDER } from './run-tool';

export const CopyWorkspaceInputSchema = z.object({ from: z.string().min(1), to: z.string().min(1) });
export type CopyWorkspaceInput = z.infer<typeof CopyWorkspaceInputSchema>;

/**
 * Gives a fork of a run whose agent works in per-run folders a copy of the original's folder as it is
 * now (files cannot be rolled back to an iteration). Safe to repeat: a retry copies over the same
 * files again; an original that never wrote anything leaves the fork an empty folder.
 */
export function createCopyWorkspace(deps: ActivityDeps) {
  return async function copyWorkspace(raw: CopyWorkspaceInput): Promise<{ copied: boolean }> {
    const { from, to } = CopyWorkspaceInputSchema.parse(raw);
    const runs = path.join(deps.workspaceRoot, RUNS_FOLDER);
    const source = path.join(runs, folderName(from));
    const target = path.join(runs, folderName(to));
    // A folder copied into itself would nest copies until the disk fills; a fork always has its own id.
    if (source === target) return { copied: false };
    await mkdir(target, { recursive: true });
    const exists = await stat(source).then((s) => s.isDirectory(), () => false);
    if (!exists) return { copied: false };
    // Symlinks are copied as links, never followed: the tools' own path checks still apply to them.
    // Only folders, files and links are copied: reading a FIFO the model made would block this
    // activity (and a thread of the worker's pool) until someone writes to it, and sockets or device
    // nodes have no content to copy.
    await cp(source, target, { recursive: true, force: true, verbatimSymlinks: true, filter: copyable });
    return { copied: true };
  };
}

/** Folders, files and links: what a workspace copy takes (a FIFO would block the reader, sockets and devices have no content). */
export async function copyable(file: string): Promise<boolean> {
  const kind = await lstat(file);
  return kind.isDirectory() || kind.isFile() || kind.isSymbolicLink();
}
