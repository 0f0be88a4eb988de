import { execFile } from 'node:child_process';
import { realpath, rm, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { dropTo } from './bwrap-args';
import { WorkspaceTooLargeError } from './errors';
import type { SandboxUser } from './sandbox-user';
import { handOver, protectedChanges, scanWorkspace, type WorkspaceScan } from './workspace-scan';

const run = promisify(execFile);

export interface CommandScan {
  workspace: string;
  hidden: readonly string[];
  /** Who commands run as on a root worker: entries not theirs are handed to them. */
  user: SandboxUser | undefined;
  /** A call a rule let write: its protected paths must stay read-only (see process-runner.ts). */
  guarded: boolean;
  /** Whether the call may write the workspace at all. */
  writes: boolean;
  /** AGENT_SCAN_MAX_ENTRIES. */
  maxEntries: number;
  /** Called as the walk goes on (every PROGRESS_EVERY entries), so the activity can heartbeat. */
  onProgress?: ((entries: number) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Walks the workspace before a command, when the command needs it; undefined when not.
 * - A call a rule let write: the whole workspace, for its protected paths. Past `maxEntries` the
 *   call is refused (WorkspaceTooLargeError): a walk cut short could miss one.
 * - A call a person approved, on a root worker: the walk hands entries to the sandbox user so the
 *   command can write them. Past `maxEntries` the command runs all the same, as the person approved
 *   it; entries the worker itself made beyond that point stay its own, and the worker's log says so.
 * - A call that may not write: none. Its workspace is mounted read-only, so there is nothing to hand
 *   over for writing and no protected path needs a mount of its own. A root worker hands it only the
 *   workspace folder and its `.git`, so that the command can enter it and git trusts the repository
 *   (git refuses one owned by another user). Everything else is readable as the worker left it: the
 *   file tools hand what they create to the sandbox user themselves, and the next call that may write
 *   hands over the rest (a nested repository the worker made included).
 */
export async function scanBeforeCommand(spec: CommandScan): Promise<WorkspaceScan | undefined> {
  const owner = spec.user && { uid: spec.user.uid, gid: spec.user.gid };
  if (!spec.guarded && !(owner && spec.writes)) {
    if (owner) for (const entry of [spec.workspace, path.join(spec.workspace, '.git')]) await handOver(entry, owner);
    return undefined;
  }
  try {
    return await scanWorkspace(spec.workspace, { hidden: spec.hidden, owner, maxEntries: spec.maxEntries, onProgress: spec.onProgress, signal: spec.signal });
  } catch (error) {
    if (spec.guarded || !(error instanceof WorkspaceTooLargeError)) throw error;
    console.warn(
      `WARNING: the workspace ${spec.workspace} has more than ${spec.maxEntries} entries (AGENT_SCAN_MAX_ENTRIES); a command a person approved ` +
        `runs without the rest of it handed to uid ${owner!.uid}, so entries the worker made there may not be writable to it.`,
    );
    return undefined;
  }
}

/**
 * Removes the protected paths a command left behind that were not there before (a fresh
 * `.env.local`, a `.git/config` in a folder renamed to `.git`), and puts back protected symlinks it
 * replaced. The command and everything it started are gone by now, so nothing of it can use them.
 * This walk has no cap: whatever the command made, every protected path in it must be found. It is
 * not cancelled with the call either, for the same reason. Returns the removed paths, relative to the
 * workspace.
 */
export async function undoProtectedChanges(
  workspace: string,
  hidden: readonly string[],
  before: WorkspaceScan,
  user: SandboxUser | undefined,
  options: { onProgress?: ((entries: number) => void) | undefined } = {},
): Promise<string[]> {
  const after = await scanWorkspace(workspace, { hidden, onProgress: options.onProgress });
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
