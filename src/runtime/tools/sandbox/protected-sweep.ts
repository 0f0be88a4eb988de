import { execFile } from 'node:child_process';
import { realpath, rm, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { dropTo } from './bwrap-args';
import type { SandboxUser } from './sandbox-user';
import { protectedChanges, scanWorkspace, type WorkspaceScan } from './workspace-scan';

const run = promisify(execFile);

/**
 * Removes the protected paths a command left behind that were not there before (a fresh
 * `.env.local`, a `.git/config` in a folder renamed to `.git`), and puts back protected symlinks it
 * replaced. The command and everything it started are gone by now, so nothing of it can use them.
 * Returns the removed paths, relative to the workspace.
 */
export async function undoProtectedChanges(workspace: string, hidden: readonly string[], before: WorkspaceScan, user: SandboxUser | undefined): Promise<string[]> {
  const after = await scanWorkspace(workspace, { hidden });
  const { added, removedLinks } = protectedChanges(before, after);
  const removed: string[] = [];
  for (const full of added) {
    if (await removeInside(full, user)) removed.push(path.relative(workspace, full));
  }
  for (const [full, target] of removedLinks) {
    if (await removeInside(full, user)) await symlink(target, full).catch(() => undefined);
  }
  return removed;
}

/**
 * Removes one path, only while its folder is still the one the scan walked: another command on a
 * shared workspace could have swapped a parent for a symlink out of it since. A root worker removes
 * it as the sandbox user, so a swap in between cannot make root delete a host file.
 */
async function removeInside(full: string, user: SandboxUser | undefined): Promise<boolean> {
  const parent = await realpath(path.dirname(full)).catch(() => undefined);
  if (parent !== path.dirname(full)) return false;
  if (!user) {
    await rm(full, { recursive: true, force: true });
    return true;
  }
  const [program, ...args] = [...dropTo(user), '/usr/bin/rm', '-rf', '--', full];
  await run(program!, args, { env: { PATH: '/usr/bin:/bin' } });
  return true;
}
