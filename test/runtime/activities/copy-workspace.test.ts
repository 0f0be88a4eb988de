// The fork's copy of a per-run folder, attacked as a model would set it up before asking for a fork:
// a FIFO (reading it would block the activity for good) and a link out of the workspace.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../../src/runtime/activities/activity-deps';
import { createCopyWorkspace } from '../../../src/runtime/activities/copy-workspace';
import { RUNS_FOLDER } from '../../../src/runtime/activities/run-tool';

describe('copyWorkspace', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'copy-workspace-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('copies files and links as they are, skips a FIFO instead of blocking on it, and follows no link', async () => {
    const from = path.join(root, RUNS_FOLDER, 'original');
    await mkdir(path.join(from, 'notes'), { recursive: true });
    await writeFile(path.join(from, 'notes', 'a.md'), 'kept');
    execFileSync('mkfifo', [path.join(from, 'pipe')]);
    await symlink('/etc', path.join(from, 'etc-link'));
    const copy = createCopyWorkspace({ workspaceRoot: root } as ActivityDeps);
    expect(await copy({ from: 'original', to: 'fork' })).toEqual({ copied: true });
    const to = path.join(root, RUNS_FOLDER, 'fork');
    expect(await readFile(path.join(to, 'notes', 'a.md'), 'utf8')).toBe('kept');
    expect(existsSync(path.join(to, 'pipe'))).toBe(false);
    // Still a link, not a copy of /etc: the file tools' own checks refuse to follow it out.
    expect(lstatSync(path.join(to, 'etc-link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(to, 'etc-link'))).toBe('/etc');
  }, 10_000);

  it('copies nothing when asked to copy a run\'s folder into itself, and leaves the folder as it was', async () => {
    const from = path.join(root, RUNS_FOLDER, 'original');
    await mkdir(from, { recursive: true });
    await writeFile(path.join(from, 'a.md'), 'kept');
    const copy = createCopyWorkspace({ workspaceRoot: root } as ActivityDeps);
    expect(await copy({ from: 'original', to: 'original' })).toEqual({ copied: false });
    expect(execFileSync('find', [from], { encoding: 'utf8' }).trim().split('\n').sort()).toEqual([from, path.join(from, 'a.md')]);
  }, 10_000);
});
