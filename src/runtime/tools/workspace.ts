import { existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { WorkspaceEscapeError } from '../../contract/errors';

/** The folder of the workspace root that holds the per-run workspaces (`runs/<id>`). */
export const RUNS_FOLDER = 'runs';

/**
 * The workspace root (the `workspace.root` setting: AGENT_WORKSPACE, default `./workspace`),
 * symlink-resolved. Created now with `create` (a worker whose agents have file tools); otherwise it is
 * resolved as far as it exists, and made by the first tool call that works in it (`workspaceFor`), so a
 * worker whose agents touch no files leaves no folder behind.
 */
export function resolveWorkspaceRoot(configured: string, { create = true }: { create?: boolean } = {}): string {
  const absolute = path.resolve(configured);
  if (create) mkdirSync(absolute, { recursive: true });
  let existing = absolute;
  while (!existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  return path.join(realpathSync(existing), path.relative(existing, absolute));
}

/** Whether `candidate` is `root` or below it, judged lexically (no symlinks are followed). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // `..` as a whole segment leaves the root; a name like `..notes` does not.
  const leaves = relative === '..' || relative.startsWith(`..${path.sep}`);
  return !leaves && !path.isAbsolute(relative);
}

/** A symbolic link whose target does not exist: a write through it would create that target. */
function isDanglingLink(candidate: string): boolean {
  try {
    return lstatSync(candidate).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Resolves a tool's path argument inside the workspace, or throws `WorkspaceEscapeError`. This is a
 * check by path, for judging a command's redirect targets; it can race with a folder swapped for a
 * symlink, so the file tools never open what it returns: they use `SafeWorkspace` (safe-open.ts).
 *
 * The check runs twice: lexically (an absolute path or `..` that leaves the root) and on the real
 * path of the deepest part that exists, so a symlink inside the workspace that points outside it is
 * refused too. Paths that do not exist yet (a file about to be written) are judged by their parent;
 * a dangling symlink on the way is refused, because writing through it would create its target
 * wherever that is.
 */
export function resolveInWorkspace(root: string, requested: string, hidden: readonly string[] = []): string {
  const target = path.resolve(root, requested);
  if (hidden.some((h) => target === h || isInside(h, target))) {
    throw new WorkspaceEscapeError(`Path "${requested}" belongs to another run's workspace; this run cannot see it.`);
  }
  if (!isInside(root, target)) {
    throw new WorkspaceEscapeError(
      `Path "${requested}" is outside the workspace (${root}). Use a path relative to the workspace root, without ".." leaving it.`,
    );
  }
  let existing = target;
  const missing: string[] = [];
  for (;;) {
    try {
      existing = realpathSync(existing);
      break;
    } catch {
      if (isDanglingLink(existing)) {
        throw new WorkspaceEscapeError(
          `Path "${requested}" goes through a symbolic link (${displayPath(root, existing)}) whose target does not exist; it is refused.`,
        );
      }
      const parent = path.dirname(existing);
      if (parent === existing) break;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
  if (!isInside(root, existing)) {
    throw new WorkspaceEscapeError(
      `Path "${requested}" resolves through a symbolic link to ${existing}, outside the workspace; it is refused.`,
    );
  }
  const resolved = path.join(existing, ...missing);
  // Checked again on the resolved path: `ln -s runs r` must not turn `r/<other-run>` into a way in.
  if (hidden.some((h) => resolved === h || isInside(h, resolved))) {
    throw new WorkspaceEscapeError(`Path "${requested}" belongs to another run's workspace; this run cannot see it.`);
  }
  return resolved;
}

/** Whether `candidate` (absolute, e.g. found by a folder walk) really lies in the workspace, links resolved. */
export function staysInWorkspace(root: string, candidate: string): boolean {
  try {
    resolveInWorkspace(root, candidate);
    return true;
  } catch (error) {
    if (error instanceof WorkspaceEscapeError) return false;
    throw error;
  }
}

/** The path as the model should see it: relative to the workspace root, with forward slashes. */
export function displayPath(root: string, absolute: string): string {
  const relative = path.relative(root, absolute);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}
