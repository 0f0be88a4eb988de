import * as path from 'node:path';
import { WorkspaceEscapeError } from '../../../contract/errors';
import { isInside } from '../workspace';
import type { ProtectionMounts } from './protection-mounts';
import type { SystemPath } from './system-layout';

export interface BwrapCommand {
  /** What runs inside the sandbox: the shell and the command line (see liveness-gate.ts). */
  shell: readonly string[];
  /** Absolute, symlink-resolved workspace: the working directory and the only host path that may be writable. */
  workspace: string;
  /** The complete environment of the command (see toolEnvironment); nothing else is inherited. */
  env: Readonly<Record<string, string>>;
  /**
   * The call's own HOME (call-home.ts): a fresh, empty host folder outside the workspace, bound
   * writable at the same path, so nothing a run wrote in the workspace is read as a start-up file.
   */
  home?: string;
  /** Whether the command shares the host's network; without it, it gets an empty namespace. */
  network: boolean;
  /** Folders inside the workspace this run must not see (other runs' folders); each gets an empty, read-only tmpfs. */
  hiddenPaths: readonly string[];
  /** The host's system folders (readSystemLayout), passed in so that this function stays pure. */
  system: readonly SystemPath[];
  /** Whether the workspace is writable (default true). A call no one let write gets it read-only. */
  writable?: boolean;
  /** Protected paths inside a writable workspace to keep read-only (see protection-mounts.ts). */
  protection?: ProtectionMounts;
  /** Size cap of the private /tmp in bytes; unset, bwrap's default (half of the RAM). */
  tmpBytes?: number;
  /**
   * When bwrap runs as root: the unprivileged user the shell runs as, and setpriv to drop to it.
   * A user namespace cannot do this (it maps the sandbox's users onto host uid 0), so bwrap keeps
   * only CAP_SETUID/SETGID/SETPCAP (and DAC_READ_SEARCH, to enter the workspace), and setpriv uses
   * them to switch user, then drops every capability.
   */
  runAs?: { uid: number; gid: number; setpriv: string };
  /**
   * More host folders or files, each at its own path, bound after the workspace in this order (a
   * later bind covers an earlier one, so parents go first). MCP servers use it for their folders.
   */
  binds?: readonly { path: string; writable: boolean }[];
  /** The working directory when it is not the workspace; it must be visible inside. */
  chdir?: string;
}

/** Empty folders that only hide or block something: small, and read-only once mounted. */
const EMPTY_TMPFS_BYTES = 4096;

/**
 * bwrap's argv for one command. The order matters: bwrap applies mounts in sequence, so the private
 * /tmp comes before the workspace bind (a workspace under /tmp, as in tests, would otherwise be
 * covered by the tmpfs), the hidden and protected paths come after it (they cover parts of the
 * workspace), and the read-only remounts come last.
 */
export function bwrapArgs(spec: BwrapCommand): string[] {
  const workspace = path.resolve(spec.workspace);
  const writable = spec.writable ?? true;
  const hidden = hiddenInside(workspace, spec.hiddenPaths);
  const protection = writable ? spec.protection : undefined;
  const args = [
    // New pid, ipc, uts, cgroup and network namespaces: the command sees no host process, and
    // without --share-net not even the host's loopback (where the Temporal frontend listens). Root
    // gets no user namespace, so that setpriv can switch to a real unprivileged host user.
    ...(spec.runAs
      ? ['--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try', ...(spec.network ? [] : ['--unshare-net'])]
      : ['--unshare-all', ...(spec.network ? ['--share-net'] : [])]),
    // bwrap started by root would otherwise hand the command every capability inside its namespaces.
    '--cap-drop', 'ALL',
    // bwrap enters the workspace (owned by that user) with the kept capabilities, before setpriv drops them.
    ...(spec.runAs ? ['--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP', '--cap-add', 'CAP_DAC_READ_SEARCH'] : []),
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
    ...(spec.tmpBytes === undefined ? [] : ['--size', String(spec.tmpBytes)]),
    '--perms', '1777', '--tmpfs', '/tmp',
    // bwrap makes the folders leading to a mount point root-only; the user setpriv drops to must be
    // able to walk through them to the workspace (and to an MCP server's folders and program).
    ...(spec.runAs ? walkableParents([workspace, ...(spec.home ? [spec.home] : []), ...(spec.binds ?? []).map((b) => b.path)]) : []),
    '--bind', workspace, workspace,
    ...(spec.home ? ['--bind', spec.home, spec.home] : []),
    ...(spec.binds ?? []).flatMap((b) => [b.writable ? '--bind' : '--ro-bind', b.path, b.path]),
    // A hidden path that does not exist yet is created (empty) as the tmpfs's mount point.
    ...hidden.flatMap((p) => emptyTmpfs(p)),
    // A mount point cannot be renamed or removed, so a protected `.git` stays where git looks for it.
    ...(protection?.readOnly ?? []).flatMap((p) => ['--ro-bind', p, p]),
    ...(writable ? [] : ['--remount-ro', workspace]),
    ...hidden.flatMap((p) => ['--remount-ro', p]),
    // The sandbox's own root is a tmpfs holding the mount points; read-only, nothing lands beside them.
    '--remount-ro', '/',
    '--chdir', spec.chdir ?? workspace,
    '--',
    ...(spec.runAs ? dropTo(spec.runAs) : []),
    ...spec.shell,
  ];
  return args;
}

/** `--dir` for every folder above the given mount points, made 0755 (an existing one is left as it is). */
function walkableParents(mountPoints: readonly string[]): string[] {
  const parents = new Set<string>();
  for (const point of mountPoints) {
    const chain: string[] = [];
    for (let dir = path.dirname(point); dir !== path.dirname(dir); dir = path.dirname(dir)) chain.unshift(dir);
    for (const dir of chain) parents.add(dir);
  }
  return [...parents].flatMap((dir) => ['--perms', '0755', '--dir', dir]);
}

function emptyTmpfs(p: string): string[] {
  return ['--size', String(EMPTY_TMPFS_BYTES), '--perms', '0555', '--tmpfs', p];
}

/** setpriv's argv that becomes the user and keeps no capability, nor a way to gain one. */
export function dropTo(user: { uid: number; gid: number; setpriv: string }): string[] {
  return [
    user.setpriv,
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--no-new-privs',
    '--',
  ];
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
