import { normalizePath } from './preference-matching';

/**
 * The one list of workspace paths that make a later program run code or change what it does: git's
 * own files, shell and tool start-up files, package-manager and interpreter configuration, editor
 * tasks. Writing one would make the next exactly-allowed command (`git status`, `python3 -m json.tool`,
 * `npm test`), or a person's next approved call, run what was planted. So a write to one always asks a
 * person, in every mode and under every rule (the policy, below), the file tools refuse it unless a
 * person approved the call, the shell analyzer asks for a command that names one, and the sandbox
 * mounts the existing ones read-only and removes fresh ones after a command no person saw.
 * docs/guides/security.md lists them with the reasons; a test keeps that list and this one equal.
 *
 * Each entry applies in every folder (a nested repository's `.git/config` is as dangerous). One ending
 * in `/` covers that folder and everything below it; a `*` in a name stands for any characters.
 * Matching is case-sensitive, as Linux file names are.
 */
export const PROTECTED_PATHS: readonly string[] = [
  // git: every file under .git (config, config.worktree, commondir, hooks, info/attributes,
  // objects/info/alternates...) and a `.git` file pointing elsewhere; the files git reads from HOME or
  // the tree; hook folders that a `core.hooksPath` set by a person points at.
  '.git/',
  '.gitconfig',
  '.gitmodules',
  '.gitattributes',
  '.husky/',
  '.githooks/',
  '.pre-commit-config.yaml',
  '.hgrc',
  '.hg/hgrc',
  // Environment files that tools load (dotenv, direnv) and shell start-up files.
  '.env*',
  '.envrc',
  '.profile',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.inputrc',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  // What programs read from HOME (XDG folders: git, pip, npm and many more under .config; Python's
  // user site-packages under .local), for a HOME that is, or once was, the workspace.
  '.config/',
  '.local/',
  '.ssh/',
  '.gnupg/',
  '.curlrc',
  '.wgetrc',
  '.netrc',
  // Package managers: registries, scripts and hooks they run.
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  'pip.conf',
  '.cargo/config',
  '.cargo/config.toml',
  '.gemrc',
  // Interpreters and debuggers: code they run at start-up (a `.pth` line starting with `import` runs
  // in every Python that finds it on its path), or when started in the folder.
  '*.pth',
  'sitecustomize.py',
  'usercustomize.py',
  '.pythonrc',
  '.pythonrc.py',
  '.pdbrc',
  '.irbrc',
  '.perldb',
  '.gdbinit',
  '.lldbinit',
  // Editors and IDEs: tasks and settings that run when a person opens the folder.
  '.vscode/',
  '.idea/',
  '.devcontainer/',
  '.exrc',
  '.vimrc',
];

/**
 * Whether a workspace-relative path (already resolved by the caller where links matter) is protected:
 * some entry matches it starting at any of its folders. Pure, as workflow code calls it.
 */
export function isProtectedPath(relativePath: string): boolean {
  const segments = normalizePath(relativePath).split('/').filter((s) => s !== '' && s !== '.');
  for (let start = 0; start < segments.length; start++) {
    const rest = segments.slice(start);
    if (ENTRIES.some((entry) => matchesEntry(entry, rest))) return true;
  }
  return false;
}

/**
 * Whether `folder` (workspace-relative) holds a protected path by name: it is itself protected, or an
 * entry with a folder part starts with it (`.git` holds `.git/config`, `.cargo` holds `.cargo/config`).
 * A link to such a folder reaches the protected path through another name.
 */
export function holdsProtectedPath(folder: string): boolean {
  const prefix = `${normalizePath(folder)}/`;
  return isProtectedPath(folder) || PROTECTED_PATHS.some((entry) => entry.startsWith(prefix));
}

/**
 * The built-in tools that write one workspace path, by the argument that names it. The policy asks a
 * person for their writes to a protected path whatever the rules and the mode say, and acceptEdits
 * lets these, and only these, write without asking (MCP and custom write tools are not confined to the
 * workspace by anything the worker controls). test/core/approvals/protected-paths.test.ts checks the
 * list against the worker's built-in write tools.
 */
export const WORKSPACE_FILE_TOOLS: Readonly<Record<string, string>> = Object.freeze({ write_file: 'path' });

/** The protected path a call of a built-in file tool writes, if it writes one. */
export function protectedWriteOf(tool: string, input: unknown): string | undefined {
  const argument = Object.hasOwn(WORKSPACE_FILE_TOOLS, tool) ? WORKSPACE_FILE_TOOLS[tool]! : undefined;
  if (argument === undefined || input === null || typeof input !== 'object') return undefined;
  const target = (input as Record<string, unknown>)[argument];
  return typeof target === 'string' && isProtectedPath(target) ? target : undefined;
}

interface Entry {
  folder: boolean;
  parts: RegExp[];
}

const ENTRIES: readonly Entry[] = PROTECTED_PATHS.map((entry) => ({
  folder: entry.endsWith('/'),
  parts: entry.replace(/\/$/, '').split('/').map((part) => new RegExp(`^${part.split('*').map(escapeRegExp).join('.*')}$`)),
}));

function matchesEntry(entry: Entry, segments: readonly string[]): boolean {
  if (segments.length < entry.parts.length || (!entry.folder && segments.length !== entry.parts.length)) return false;
  return entry.parts.every((part, i) => part.test(segments[i]!));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
