import { mkdir, readFile, readlink, rename, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceEscapeError } from '../../../src/contract/errors';
import { FileRefusedError } from '../../../src/runtime/tools/file-errors';
import { SafeWorkspace } from '../../../src/runtime/tools/safe-open';
import { removeTempDirs, tempDir } from './tool-test-context';

afterAll(removeTempDirs);

describe('SafeWorkspace.resolve', () => {
  let root: string;
  let ws: SafeWorkspace;

  beforeEach(async () => {
    root = await tempDir();
    await mkdir(path.join(root, 'docs', 'deep'), { recursive: true });
    await writeFile(path.join(root, 'docs', 'deep', 'a.md'), 'a\n');
    ws = await SafeWorkspace.open(root);
    return () => ws.close();
  });

  it('follows symlinks that stay inside, relative or absolute, one component at a time', async () => {
    await symlink('docs/deep', path.join(root, 'rel'));
    await symlink(path.join(root, 'docs'), path.join(root, 'abs'));
    await symlink('../deep/a.md', path.join(root, 'docs', 'deep', 'up'));
    for (const requested of ['rel/a.md', 'abs/deep/a.md', 'docs/deep/up', 'rel/up']) {
      const resolved = await ws.resolve(requested);
      expect({ requested, relative: resolved.relative, file: resolved.stats?.isFile() }).toEqual({ requested, relative: 'docs/deep/a.md', file: true });
    }
  });

  it('refuses a relative symlink whose ".." climbs out, and a symlink loop', async () => {
    await symlink('../../..', path.join(root, 'docs', 'out'));
    await expect(ws.resolve('docs/out/etc/passwd')).rejects.toThrow(WorkspaceEscapeError);
    await symlink('loop-b', path.join(root, 'loop-a'));
    await symlink('loop-a', path.join(root, 'loop-b'));
    await expect(ws.resolve('loop-a/x')).rejects.toThrow(FileRefusedError);
    await expect(ws.resolve('loop-a/x')).rejects.toThrow(/more than 40 symbolic links/);
  });

  it('resolves a missing path to its deepest existing folder, and creates folders only when asked', async () => {
    const missing = await ws.resolve('docs/new/file.md');
    expect({ name: missing.name, stats: missing.stats, relative: missing.relative }).toEqual({ name: 'new', stats: undefined, relative: 'docs/new/file.md' });
    const made = await ws.resolve('docs/new/file.md', { createFolders: true });
    expect({ name: made.name, folder: made.folder.realPath }).toEqual({ name: 'file.md', folder: path.join(root, 'docs', 'new') });
  });

  it('keeps working on the folder it opened after that folder is renamed, and sees the new name as refused when it leads out', async () => {
    const outside = await tempDir('outside-');
    await writeFile(path.join(outside, 'a.md'), 'OUTSIDE\n');
    const resolved = await ws.resolve('docs/deep/a.md');
    // Swap `docs/deep` for a symlink out after it was opened: the open folder is still the real one.
    await rename(path.join(root, 'docs', 'deep'), path.join(root, 'docs', 'deep.real'));
    await symlink(outside, path.join(root, 'docs', 'deep'));
    // The kernel resolves the descriptor's magic link to the folder itself, under its new name.
    expect(await readlink(`/proc/self/fd/${resolved.folder.handle.fd}`)).toBe(path.join(root, 'docs', 'deep.real'));
    expect(await readFile(`/proc/self/fd/${resolved.folder.handle.fd}/a.md`, 'utf8')).toBe('a\n');
    await expect(ws.resolve('docs/deep/a.md')).rejects.toThrow(WorkspaceEscapeError);
  });
});

describe('SafeWorkspace.open', () => {
  it('refuses a root that was replaced by a symlink', async () => {
    const parent = await tempDir();
    const elsewhere = await tempDir('outside-');
    await symlink(elsewhere, path.join(parent, 'ws'));
    await expect(SafeWorkspace.open(path.join(parent, 'ws'))).rejects.toThrow(/is not a folder \(a symbolic link or a file was put in its place\)/);
  });
});
