import { lstatSync, readlinkSync } from 'node:fs';

/**
 * One top-level system folder as the host has it. On merged-/usr systems (Debian 12, Ubuntu, Fedora)
 * /bin, /sbin and /lib* are symlinks into /usr; the sandbox recreates the symlink instead of binding
 * the target a second time, so paths and `ls -l /bin` look the same inside as outside.
 */
export interface SystemPath {
  path: string;
  /** The link's target (e.g. `usr/bin`) when the host path is a symlink. */
  symlinkTo?: string;
}

/** The read-only system folders a sandboxed command may see; everything else of the host is hidden. */
export const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'] as const;

/**
 * Reads how the host lays out SYSTEM_PATHS. Paths the host lacks are still listed (without a link)
 * because bwrap's `--ro-bind-try` skips a missing source on its own.
 */
export function readSystemLayout(paths: readonly string[] = SYSTEM_PATHS): SystemPath[] {
  return paths.map((p) => {
    try {
      if (lstatSync(p).isSymbolicLink()) return { path: p, symlinkTo: readlinkSync(p) };
    } catch {
      // Missing on this host: left to --ro-bind-try.
    }
    return { path: p };
  });
}
