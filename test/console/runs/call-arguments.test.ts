import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeCallArguments } from '../../../src/console/runs/call-arguments';

describe('describeCallArguments', () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await mkdtemp(path.join(tmpdir(), 'console-ws-'));
    await writeFile(path.join(workspace, 'notes.md'), 'a\nb\nc\n');
    await mkdir(path.join(workspace, 'runs', 'run-own'), { recursive: true });
    await writeFile(path.join(workspace, 'runs', 'run-own', 'notes.md'), 'own\n');
  });
  const write = (input: unknown, workflowId = 'run-1') => describeCallArguments({ tool: 'write_file', input, workflowId }, workspace);

  it('shows a shell call as its command line and the simple commands the worker parsed', async () => {
    const args = await describeCallArguments({ tool: 'shell', input: { command: 'ls && rm x' }, commands: ['ls', 'rm x'], workflowId: 'r' }, workspace);
    expect(args).toEqual({ kind: 'shell', command: 'ls && rm x', commands: ['ls', 'rm x'] });
  });

  it('diffs a write_file against the current file in the workspace, or in the run\'s own folder', async () => {
    expect(await write({ path: 'notes.md', content: 'a\nB\nc\n' })).toEqual({
      kind: 'write_file',
      path: 'notes.md',
      append: false,
      mode: 'diff',
      hunks: [{ oldStart: 1, newStart: 1, lines: [' a', '-b', '+B', ' c'] }],
    });
    const appended = await write({ path: 'notes.md', content: 'd\n', append: true });
    expect(appended).toMatchObject({ mode: 'diff', append: true, hunks: [{ lines: [' a', ' b', ' c', '+d'] }] });
    expect(await write({ path: 'notes.md', content: 'mine\n' }, 'run-own')).toMatchObject({ mode: 'diff', hunks: [{ lines: ['-own', '+mine'] }] });
  });

  it('shows the new content when the file does not exist, or when the workspace cannot be read, saying why', async () => {
    expect(await write({ path: 'new.md', content: 'hello' })).toEqual({ kind: 'write_file', path: 'new.md', append: false, mode: 'new', content: 'hello' });
    expect(await write({ path: '../outside.md', content: 'x' })).toMatchObject({ mode: 'content-only', note: expect.stringContaining('outside the workspace') });
    expect(await write({ path: 'runs/run-own/notes.md', content: 'x' })).toMatchObject({ mode: 'content-only', note: expect.stringContaining("another run's workspace") });
    const elsewhere = await describeCallArguments({ tool: 'write_file', input: { path: 'notes.md', content: 'x' }, workflowId: 'r' }, undefined);
    expect(elsewhere).toMatchObject({ mode: 'content-only', content: 'x', note: 'No diff: the console was not given the workspace (--workspace or AGENT_WORKSPACE).' });
  });

  it('opens the file as the tools do: no symlink into another run, no FIFO, no foreign hard link', async () => {
    await symlink('runs', path.join(workspace, 'r'));
    execFileSync('mkfifo', [path.join(workspace, 'pipe')]);
    expect(await write({ path: 'r/run-own/notes.md', content: 'x' })).toMatchObject({ mode: 'content-only', note: expect.stringContaining("another run's workspace") });
    expect(await write({ path: 'pipe', content: 'x' })).toMatchObject({ mode: 'content-only', note: expect.stringContaining('not a regular file') });
    await link(path.join(workspace, 'runs', 'run-own', 'notes.md'), path.join(workspace, 'linked.md'));
    expect(await write({ path: 'linked.md', content: 'x' })).toMatchObject({ mode: 'content-only', note: expect.stringContaining('hard links') });
  });

  it('shows any other call as indented JSON', async () => {
    expect(await describeCallArguments({ tool: 'read_file', input: { path: 'a' }, workflowId: 'r' }, workspace)).toEqual({ kind: 'json', text: '{\n  "path": "a"\n}' });
  });
});
