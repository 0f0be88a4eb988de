import * as path from 'node:path';

/**
 * Workspace paths that make other programs run code: git's config and hooks, env files that tools
 * load, package-manager and shell start-up files. A call that runs without a person seeing it (an
 * allow rule or an "always" preference) may never write them, even when its rule grants writes,
 * because the next exactly-allowed command (`git status`, `npm test`) would run what was planted.
 * The sandbox mounts them read-only and the file tools refuse them; docs/guides/security.md lists them.
 *
 * Each entry is a workspace-relative path; one ending in `/` covers a folder and everything below
 * it, one ending in `*` covers every name with that prefix in its folder.
 */
export const PROTECTED_PATHS: readonly string[] = [
  '.git/config',
  '.git/hooks/',
  '.git/info/',
  '.gitmodules',
  '.gitattributes',
  '.env*',
  '.envrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.bashrc',
  '.bash_profile',
  '.profile',
  '.vscode/',
];

/**
 * Whether a workspace-relative path (already normalized and symlink-resolved by the caller) is
 * protected. Matching is per path segment and case-sensitive, as Linux file names are; the
 * protected names apply in every folder (a nested repository's `.git/config` is as dangerous).
 */
export function isProtectedPath(relativePath: string): boolean {
  const segments = path.posix.normalize(relativePath.split(path.sep).join('/')).split('/').filter((s) => s && s !== '.');
  for (let start = 0; start < segments.length; start++) {
    const rest = segments.slice(start);
    if (PROTECTED_PATHS.some((entry) => matchesEntry(entry, rest))) return true;
  }
  return false;
}

function matchesEntry(entry: string, segments: readonly string[]): boolean {
  const folder = entry.endsWith('/');
  const parts = entry.replace(/\/$/, '').split('/');
  if (segments.length < parts.length || (!folder && segments.length !== parts.length)) return false;
  return parts.every((part, i) => (part.endsWith('*') ? (segments[i] ?? '').startsWith(part.slice(0, -1)) : segments[i] === part));
}
