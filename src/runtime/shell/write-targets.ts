import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { holdsProtectedPath, isProtectedPath } from '../../core/approvals/protected-paths';
import { resolveInWorkspace, staysInWorkspace } from '../tools/workspace';
import type { LineEvent } from '../../core/approvals/shell/collect-commands';
import { programName, wrappedCommands } from '../../core/approvals/shell/command-wrappers';
import type { ShellWord, ShellWrite } from '../../contract/shell-analysis';

export interface WriteTargetOptions {
  workspaceRoot: string;
  /** Where the command starts; relative to the workspace root when relative. Default: the root. */
  cwd?: string;
}

/** Files the shell itself provides; writing them touches nothing on disk. */
const HARMLESS_DEVICES = /^\/dev\/(null|stdout|stderr|fd\/\d+)$/;

/**
 * Redirections that are not writes at all: output thrown away, or sent to the call's own output
 * (`git status 2>/dev/null`). They are left out of the analysis's writes, so an "always" given for
 * such a call is not remembered as one that writes. Other descriptors (`/dev/fd/5`) stay writes: they
 * may have been opened on a file.
 */
const NOT_A_WRITE = /^\/dev\/(null|stdout|stderr|fd\/[12])$/;

/** Past this many possible directories the line is too tangled to follow; relative writes count as outside. */
const MAX_DIRECTORIES = 64;

/**
 * Decides for every redirection target whether it stays in the workspace.
 *
 * A relative target depends on the directory at that moment, and `cd /etc && echo x > passwd` writes
 * /etc/passwd. So the events are replayed in source order, keeping every directory the line could be
 * in: each `cd DIR` adds DIR (resolved against each directory so far) without dropping the old ones,
 * because `cd` may sit in a branch that does not run. A relative target must stay inside from all of
 * them. A `cd` that cannot be followed (computed, `cd -`, in a loop or function, a sourced script)
 * makes every later relative target count as outside.
 */
export function resolveWrites(events: readonly LineEvent[], options: WriteTargetOptions): { writes: ShellWrite[]; protectedPaths: string[] } {
  const root = realOrSelf(path.resolve(options.workspaceRoot));
  let directories: string[] | undefined = [realOrSelf(path.resolve(root, options.cwd ?? '.'))];
  const writes: ShellWrite[] = [];
  const protectedPaths: string[] = [];
  for (const event of events) {
    if (event.kind === 'command') {
      protectedPaths.push(...event.words.slice(1).filter((word) => namesProtectedPath(root, directories, word, false)).map((word) => word.text));
      directories = afterDirectoryChange(directories, event.words, event.repeats);
    } else if (event.target.literal && !event.target.glob && NOT_A_WRITE.test(event.target.text)) {
      continue;
    } else {
      // A glob target (`> .git/c*g`) is expanded by bash when it matches one file.
      const insideWorkspace = !event.target.glob && staysInside(root, directories, event.target);
      writes.push({ target: event.target.text, insideWorkspace });
      if (namesProtectedPath(root, directories, event.target, true)) protectedPaths.push(event.target.text);
    }
  }
  return { writes, protectedPaths: [...new Set(protectedPaths)] };
}

/**
 * Whether a word names a protected path (src/core/approvals/protected-paths.ts, the one list the file
 * tools and the sandbox use too) or, for a word that is not a redirection target, a folder holding one
 * (`.cargo`, which `ln -s .cargo c` would reach through). Every directory the line could be in counts,
 * the path is normalized and its existing part resolved, and an `--option=value` or `of=value` word is
 * read by its value too.
 */
function namesProtectedPath(root: string, directories: string[] | undefined, word: ShellWord, redirect: boolean): boolean {
  if (!word.literal) return false;
  // A word may hold a path inside a script or option (`sed 'w .git/config'`, `--output=.git/config`).
  const values = [word.text, ...(redirect ? [] : word.text.split(/[\s=;'"]+/))].filter((value) => value !== '');
  return values.some((value) => {
    // A glob with a segment starting with `.` or `[` may expand to a protected dot-file.
    if (word.glob && value.split('/').some((segment) => /^[.[]/.test(segment) && segment !== '.' && segment !== '..')) return true;
    const bases = path.isAbsolute(value) ? [root] : (directories ?? [root]);
    return bases.some((base) => {
      const absolute = path.resolve(base, value);
      return [absolute, resolvedOrSelf(root, absolute)].some((candidate) => isProtectedInside(root, candidate, redirect));
    });
  });
}

function isProtectedInside(root: string, absolute: string, redirect: boolean): boolean {
  const relative = path.relative(root, absolute);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return false;
  return redirect ? isProtectedPath(relative) : holdsProtectedPath(relative);
}

function resolvedOrSelf(root: string, absolute: string): string {
  try {
    return resolveInWorkspace(root, absolute);
  } catch {
    return absolute;
  }
}

function staysInside(root: string, directories: string[] | undefined, target: ShellWord): boolean {
  if (!target.literal || target.text === '') return false;
  if (path.isAbsolute(target.text)) return isInside(root, path.resolve(target.text));
  return directories !== undefined && directories.every((directory) => isInside(root, path.resolve(directory, target.text)));
}

function isInside(root: string, absolute: string): boolean {
  return HARMLESS_DEVICES.test(absolute) || staysInWorkspace(root, absolute);
}

function afterDirectoryChange(directories: string[] | undefined, words: ShellWord[], repeats: boolean): string[] | undefined {
  const runs = [words, ...wrappedCommands(words).inner];
  for (const command of runs) {
    const name = command[0]?.literal === true ? programName(command[0]) : '';
    // A sourced script can change directory in ways this line does not show.
    if (name === 'source' || name === '.') return undefined;
    if (name !== 'cd' && name !== 'pushd') continue;
    // popd needs no case: it returns to a directory that is already among the possibilities.
    const target = directoryOperand(command);
    if (directories === undefined || repeats || target === undefined) return undefined;
    const next = new Set([...directories, ...directories.map((directory) => path.resolve(directory, target))]);
    return next.size > MAX_DIRECTORIES ? undefined : [...next];
  }
  return directories;
}

/** The literal directory `cd`/`pushd` goes to; undefined when it is computed, `-`, HOME or a stack entry. */
function directoryOperand(words: ShellWord[]): string | undefined {
  let index = 1;
  while (words[index]?.literal === true && /^-[LPe@]+$/.test(words[index]!.text)) index += 1;
  if (words[index]?.text === '--') index += 1;
  const operand = words[index];
  if (operand === undefined || !operand.literal || operand.glob) return undefined;
  if (operand.text === '' || operand.text === '-' || /^[+-]\d+$/.test(operand.text)) return undefined;
  return operand.text;
}

/** The workspace check compares real paths, so the root must be one too when it exists. */
function realOrSelf(absolute: string): string {
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}
