// The one protected-path list (issue 30): what it covers, and that the docs, the file tools and the
// policy's list of built-in file tools cannot drift from it.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsProtectedPath, isProtectedPath, PROTECTED_PATHS, protectedWriteOf, WORKSPACE_FILE_TOOLS } from '../../../src/core/approvals/protected-paths';
import { builtinTools } from '../../../src/runtime/tools/builtin';

describe('isProtectedPath', () => {
  it.each([
    // All of .git, in any folder, and a .git file that points git elsewhere.
    '.git', '.git/config', '.git/commondir', '.git/config.worktree', '.git/objects/info/alternates', '.git/hooks/pre-commit',
    '.git/info/attributes', '.git/modules/sub/config', '.git/rebase-merge/git-rebase-todo', 'vendor/lib/.git', 'vendor/lib/.git/config',
    // What programs read from HOME, were it the workspace.
    '.gitconfig', '.config/git/config', '.config', '.local/lib/python3.11/site-packages/zz.pth', '.ssh/config', '.gnupg/gpg.conf',
    '.curlrc', '.wgetrc', '.netrc', '.inputrc', '.bashrc', '.zshenv',
    // Python: a .pth anywhere, the customize modules, start-up and debugger files.
    'zz.pth', 'venv/lib/python3.11/site-packages/evil.pth', 'sitecustomize.py', 'lib/usercustomize.py', '.pythonrc', '.pythonrc.py', '.pdbrc', 'pip.conf',
    // Package managers, editors, the rest.
    '.npmrc', 'pkg/.npmrc', '.yarnrc.yml', '.pnpmfile.cjs', '.cargo/config.toml', '.gemrc', '.env', '.env.local', '.envrc', '.vscode/tasks.json',
    '.idea/workspace.xml', '.devcontainer/devcontainer.json', '.husky/pre-commit', '.pre-commit-config.yaml', '.gitattributes', '.gitmodules',
    './.git/../.npmrc', 'a//b/.gitconfig',
  ])('protects %s', (p) => {
    expect(isProtectedPath(p)).toBe(true);
  });

  it.each(['src/app.py', 'README.md', 'git-notes.md', '.github/workflows/ci.yml', 'docs/.gitkeep', 'pth', 'x.pth.txt', 'config', 'local/x', '.cargo/registry/x', 'environment.yml', 'sitecustomize.txt'])(
    'leaves %s alone',
    (p) => {
      expect(isProtectedPath(p)).toBe(false);
    },
  );

  it('is case-sensitive, as Linux file names are', () => {
    expect(isProtectedPath('.GIT/config')).toBe(false);
    expect(isProtectedPath('zz.PTH')).toBe(false);
  });
});

describe('holdsProtectedPath', () => {
  it('is true for a protected path and for a folder an entry names inside it, false elsewhere', () => {
    expect(holdsProtectedPath('.git')).toBe(true);
    expect(holdsProtectedPath('.cargo')).toBe(true);
    expect(holdsProtectedPath('.hg')).toBe(true);
    expect(holdsProtectedPath('src')).toBe(false);
    expect(holdsProtectedPath('.')).toBe(false);
  });
});

describe('protectedWriteOf', () => {
  it('names the protected path a built-in file tool writes, and nothing for other tools or paths', () => {
    expect(protectedWriteOf('write_file', { path: '.git/commondir', content: '' })).toBe('.git/commondir');
    expect(protectedWriteOf('write_file', { path: 'notes.md', content: '' })).toBeUndefined();
    expect(protectedWriteOf('mcp__fs__write_file', { path: '.git/config' })).toBeUndefined();
    expect(protectedWriteOf('write_file', null)).toBeUndefined();
    expect(protectedWriteOf('toString', { path: '.git/config' })).toBeUndefined();
  });
});

describe('WORKSPACE_FILE_TOOLS', () => {
  it('are exactly the worker\'s built-in write tools, by the argument that names their path', () => {
    const writers = builtinTools.filter((tool) => tool.scope === 'write');
    expect(Object.fromEntries(writers.map((tool) => [tool.name, tool.subjectArgument]))).toEqual(WORKSPACE_FILE_TOOLS);
  });
});

describe('the security guide', () => {
  it('lists every protected path', () => {
    const guide = readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'guides', 'security.md'), 'utf8');
    const missing = PROTECTED_PATHS.filter((entry) => !guide.includes(`\`${entry}\``));
    expect(missing, 'add them to the protected-path list in docs/guides/security.md').toEqual([]);
  });
});
