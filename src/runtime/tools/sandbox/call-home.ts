import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { dropTo } from './bwrap-args';
import type { SandboxUser } from './sandbox-user';

const run = promisify(execFile);

/**
 * Every command gets a HOME of its own: a fresh, empty, private folder (0700) outside the workspace,
 * created before the command and removed after it. Programs read their start-up files from HOME
 * (`.gitconfig`, `.config/git/config`, `.npmrc`, Python's user site-packages under `.local`, `.curlrc`,
 * `.ssh/config`...); with HOME in the workspace, one call could plant them for the next, and the next
 * might be a call a person approved without seeing the file. A fresh folder holds nothing a run wrote,
 * and what a command leaves there is gone when it ends. Under bwrap the folder is bound into the
 * sandbox at the same path; in mode none the command sees it on the host.
 */
export async function createCallHome(owner: { uid: number; gid: number } | undefined): Promise<string> {
  const home = await mkdtemp(path.join(tmpdir(), 'agent-home-'));
  // Handed to the user commands run as (when the worker is root), so they can write their own HOME.
  if (owner) await chown(home, owner.uid, owner.gid);
  return home;
}

/**
 * Removes a call's HOME once its command and everything it started are gone. A root worker removes it
 * as the sandbox user, so a link the command left there cannot make root delete a host file; files it
 * made unreadable to itself are made readable first (by their owner, which is that user).
 */
export async function removeCallHome(home: string, user: SandboxUser | undefined): Promise<void> {
  // One process for both steps; the folder is its argument, never part of the script.
  const [program, ...args] = [...(user ? dropTo(user) : []), '/bin/sh', '-c', 'chmod -R u+rwx -- "$1"; rm -rf -- "$1"', 'remove-home', home];
  await run(program!, args, { env: { PATH: '/usr/bin:/bin' } }).catch(() => undefined);
  // Nothing is left unless something outside the sandbox changed the folder; the worker says so rather than fail the call.
  if (existsSync(home)) console.warn(`WARNING: the HOME of a finished command could not be removed: ${home}`);
}
