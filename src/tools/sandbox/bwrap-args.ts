import * as path from 'node:path';
import { WorkspaceEscapeError } from '../../errors';
import { isInside } from '../workspace';
import type { SystemPath } from './system-layout';

export interface BwrapCommand {
  /** What runs inside the sandbox: the shell and the command line (see liveness-gate.ts). */
  shell: readonly string[];
  /** Absolute, symlink-resolved workspace: the working directory and the only writable host path. */
  workspace: string;
  /** The complete environment of the command (see toolEnvironment); nothing else is inherited. */
  env: Readonly<Record<string, string>>;
  /** Whether the command shares the host's network; without it, it gets an empty namespace. */
  network: boolean;
  /** Folders inside the workspace this run must not see (other runs' folders); each gets an empty tmpfs. */
  hiddenPaths: readonly string[];
  /** The host's system folders (readSystemLayout), passed in so that this function stays pure. */
  system: readonly SystemPath[];
  /**
   * More host folders or files, each at its own path, bound after the workspace in this order (a
   * later bind covers an earlier one, so parents go first). MCP servers use it for their folders.
   */
  binds?: readonly { path: string; writable: boolean }[];
  /** The working directory when it is not the workspace; it must be visible inside. */
  chdir?: string;
}

/**
 * bwrap's argv for one command. The order matters: bwrap applies mounts in sequence, so the private
 * /tmp comes before the workspace bind (a workspace under /tmp, as in tests, would otherwise be
 * covered by the tmpfs) and the hidden paths come after it (they cover parts of the workspace).
 */
export function bwrapArgs(spec: BwrapCommand): string[] {
  const workspace = path.resolve(spec.workspace);
  const args = [
    // New user, pid, ipc, uts, cgroup and network namespaces: the command sees no host process,
    // and without --share-net not even the host's loopback (where the Temporal frontend listens).
    '--unshare-all',
    ...(spec.network ? ['--share-net'] : []),
    // bwrap started by root would otherwise hand the command every capability inside its namespaces.
    '--cap-drop', 'ALL',
    // If the worker dies, bwrap and (through the pid namespace) everything it started die with it.
    '--die-with-parent',
    // A new session, so the command cannot push input into a terminal the worker holds (TIOCSTI).
    '--new-session',
    '--clearenv',
    ...Object.entries(spec.env).flatMap(([name, value]) => ['--setenv', name, value]),
    ...spec.system.flatMap((p) => (p.symlinkTo !== undefined ? ['--symlink', p.symlinkTo, p.path] : ['--ro-bind-try', p.path, p.path])),
    // With the network shared, DNS must work too; on systemd hosts /etc/resolv.conf points into /run.
    ...(spec.network ? ['--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve'] : []),
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp',
    '--bind', workspace, workspace,
    ...(spec.binds ?? []).flatMap((b) => [b.writable ? '--bind' : '--ro-bind', b.path, b.path]),
    // A hidden path that does not exist yet is created (empty) as the tmpfs's mount point.
    ...hiddenInside(workspace, spec.hiddenPaths).flatMap((p) => ['--tmpfs', p]),
    // The sandbox's own root is a tmpfs holding the mount points; read-only, nothing lands beside them.
    '--remount-ro', '/',
    '--chdir', spec.chdir ?? workspace,
    '--',
    ...spec.shell,
  ];
  return args;
}

/**
 * Resolves hidden paths against the workspace and refuses any outside it (or the workspace itself):
 * the rest of the host is hidden anyway, so such a path means the caller mixed up its paths, and a
 * tmpfs over it would only mask that bug.
 */
function hiddenInside(workspace: string, hidden: readonly string[]): string[] {
  return hidden.map((p) => {
    const resolved = path.resolve(workspace, p);
    if (resolved === workspace || !isInside(workspace, resolved)) {
      throw new WorkspaceEscapeError(`Hidden path "${p}" is not a folder inside the workspace (${workspace}).`);
    }
    return resolved;
  });
}
