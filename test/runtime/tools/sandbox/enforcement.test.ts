// The sandbox enforces what was decided: a call no person saw can at worst read, or write ordinary
// files when its rule grants writes, but never a protected path. Hostile commands, real bwrap.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessRunner, ProcessRunSpec } from '../../../../src/runtime/tools/sandbox/process-runner';
import { removeTempDirs, tempDir } from '../tool-test-context';
import { PERSON_APPROVED, RULE_READS, RULE_WRITES, runIn, runnerFor } from './sandbox-test-support';

/** A git repository with an env file, a symlink to it and ordinary files, as a project looks. */
async function project(): Promise<string> {
  const workspace = await tempDir('enforce-ws-');
  expect(spawnSync('git', ['init', '-q', workspace]).status).toBe(0);
  await writeFile(path.join(workspace, '.env'), 'TOKEN=original\n');
  await writeFile(path.join(workspace, 'notes.txt'), 'original\n');
  await mkdir(path.join(workspace, 'src'));
  await writeFile(path.join(workspace, 'src', 'main.ts'), 'original\n');
  await symlink('notes.txt', path.join(workspace, 'notes-link'));
  return workspace;
}

/** Every path in the workspace with its content (or link target), to compare before and after. */
async function snapshot(dir: string, prefix = ''): Promise<Record<string, string>> {
  const entries: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) entries[rel] = `-> ${await readlink(full)}`;
    else if (entry.isDirectory()) Object.assign(entries, { [rel]: 'dir' }, await snapshot(full, rel));
    else entries[rel] = await readFile(full, 'utf8');
  }
  return entries;
}

const writes = [
  'echo x > notes.txt',
  'echo x >> src/main.ts',
  'echo x > fresh.txt',
  'rm -f notes.txt',
  'rm -rf src',
  'mv notes.txt moved.txt',
  'touch fresh-touch',
  'mkdir fresh-dir',
  'echo x > notes-link',
  'ln -s /etc/passwd planted-link',
  'truncate -s 0 notes.txt',
  'chmod 000 notes.txt',
  'cp notes.txt copy.txt',
  'echo x > .env',
  'echo x >> .git/config',
  'git config core.fsmonitor "touch PWNED"',
];

describe('sandbox enforcement (bwrap)', () => {
  let runner: ProcessRunner;
  let workspace: string;
  const run = (command: string, extra: Partial<ProcessRunSpec> = {}) => runIn(runner, workspace, command, extra);

  beforeAll(() => {
    runner = runnerFor('bwrap');
  });
  beforeEach(async () => {
    workspace = await project();
  });
  afterAll(removeTempDirs);

  describe('a call a rule allowed without writes (and one with no permission at all)', () => {
    it.each(writes)('cannot change the workspace: %s', async (command) => {
      const before = await snapshot(workspace);
      for (const extra of [{ permission: RULE_READS }, {}]) {
        const result = await run(command, extra);
        expect(result.exitCode, result.output).not.toBe(0);
        expect(result.output).toMatch(/Read-only file system|Permission denied|could not lock config file/);
      }
      expect(await snapshot(workspace)).toEqual(before);
    });

    it('can still read the workspace', async () => {
      expect(await run('cat notes.txt .env && git status --short | wc -l', { permission: RULE_READS })).toMatchObject({
        exitCode: 0,
        output: expect.stringContaining('original\nTOKEN=original\n'),
      });
    });
  });

  describe('a call a rule allowed with writes', () => {
    const rule = { permission: RULE_WRITES };

    it('can write, move and delete ordinary files', async () => {
      const result = await run('echo new > fresh.txt && echo more >> src/main.ts && mv notes.txt moved.txt && rm notes-link', rule);
      expect(result).toMatchObject({ exitCode: 0, removedProtectedPaths: [] });
      expect(await readFile(path.join(workspace, 'fresh.txt'), 'utf8')).toBe('new\n');
      expect(await readFile(path.join(workspace, 'moved.txt'), 'utf8')).toBe('original\n');
    });

    it.each([
      'echo x >> .git/config',
      'git config core.fsmonitor "touch PWNED"',
      'printf "#!/bin/sh\\ntouch PWNED\\n" > .git/hooks/post-checkout',
      'echo x > .git/hooks/pre-commit.sample',
      'echo x > .git/info/exclude',
      'echo TOKEN=planted > .env',
      'rm -f .env',
      'mv .env env-moved',
      'rm -f .env; echo TOKEN=planted > .env',
      'mv .git git-moved',
      'ln -sf ../.git/config src/cfg && echo x >> src/cfg',
      // Every file under .git (issue 30): git reads its config from a planted commondir, a worktree config, alternates.
      'echo ../cfg > .git/commondir',
      'printf "[core]\\n\\tfsmonitor = touch PWNED\\n" > .git/config.worktree',
      'mkdir -p .git/objects/info && echo /tmp > .git/objects/info/alternates',
      'rm -rf .git',
    ])('cannot change a protected path: %s', async (command) => {
      const before = await snapshot(workspace);
      const result = await run(command, rule);
      expect(result.exitCode, result.output).not.toBe(0);
      expect(result.output).toMatch(/Read-only file system|Device or resource busy|Permission denied|could not lock config file|cannot/i);
      const after = await snapshot(workspace);
      delete after['src/cfg'];
      expect(after).toEqual(before);
    });

    it('leaves no fresh protected path behind, and says which it removed', async () => {
      const command = [
        'echo NODE_OPTIONS=--require=./evil.js > .env.local',
        'echo registry=http://evil > .npmrc',
        'mkdir -p sub/.vscode && echo {} > sub/.vscode/tasks.json',
        'echo x > sub/.env',
        'mkdir evil && printf "[core]\\n\\tfsmonitor = touch PWNED\\n" > evil/config && mkdir -p nested && mv evil nested/.git',
        'mkdir -p .local/lib/python3.11/site-packages && echo "import os" > .local/lib/python3.11/site-packages/zz.pth',
        'echo "[core]" > .gitconfig',
        'echo ordinary > kept.txt',
      ].join(' && ');
      const result = await run(command, rule);
      expect(result.exitCode, result.output).toBe(0);
      expect([...result.removedProtectedPaths].sort()).toEqual(['.env.local', '.gitconfig', '.local', '.npmrc', 'nested/.git', 'sub/.env', 'sub/.vscode']);
      for (const gone of ['.env.local', '.npmrc', 'sub/.vscode', 'sub/.env', 'nested/.git', '.local', '.gitconfig']) {
        expect(existsSync(path.join(workspace, gone)), gone).toBe(false);
      }
      expect(await readFile(path.join(workspace, 'kept.txt'), 'utf8')).toBe('ordinary\n');
    });

    it('cannot place a .pth file anywhere, not even by copying a folder that holds one', async () => {
      await mkdir(path.join(workspace, 'vendor', 'pkg'), { recursive: true });
      await writeFile(path.join(workspace, 'vendor', 'pkg', 'zz.pth'), 'import os\n');
      await writeFile(path.join(workspace, 'vendor', 'pkg', 'mod.py'), 'x = 1\n');
      const result = await run('cp -r vendor/pkg site && cp vendor/pkg/zz.pth lib.pth && ls site', rule);
      expect(result.exitCode, result.output).toBe(0);
      expect([...result.removedProtectedPaths].sort()).toEqual(['lib.pth', 'site/zz.pth']);
      expect(existsSync(path.join(workspace, 'site', 'zz.pth'))).toBe(false);
      expect(existsSync(path.join(workspace, 'lib.pth'))).toBe(false);
      expect(await readFile(path.join(workspace, 'site', 'mod.py'), 'utf8')).toBe('x = 1\n');
      // The one that was there stays as it was.
      expect(await readFile(path.join(workspace, 'vendor', 'pkg', 'zz.pth'), 'utf8')).toBe('import os\n');
    });

    it('cannot create a hook in a repository that has no hooks folder', async () => {
      await rm(path.join(workspace, '.git', 'hooks'), { recursive: true });
      const result = await run('printf "#!/bin/sh\\ntouch PWNED\\n" > .git/hooks/post-checkout', rule);
      expect(result.exitCode).not.toBe(0);
      expect(existsSync(path.join(workspace, '.git', 'hooks', 'post-checkout'))).toBe(false);
    });

    it('puts back a protected symlink the command replaced', async () => {
      await symlink('notes.txt', path.join(workspace, '.envrc'));
      const result = await run('rm .envrc && echo "export EVIL=1" > .envrc', rule);
      expect(result.removedProtectedPaths).toEqual(['.envrc']);
      expect(await readlink(path.join(workspace, '.envrc'))).toBe('notes.txt');
    });
  });

  describe('a call a person approved', () => {
    it('can write protected paths', async () => {
      const command = 'echo TOKEN=new > .env && echo x > .env.local && git config user.name person && echo hook > .git/hooks/post-checkout && echo ok';
      const result = await run(command, { permission: PERSON_APPROVED });
      expect(result).toMatchObject({ exitCode: 0, output: 'ok\n', removedProtectedPaths: [] });
      expect(await readFile(path.join(workspace, '.env'), 'utf8')).toBe('TOKEN=new\n');
      expect(await readFile(path.join(workspace, '.env.local'), 'utf8')).toBe('x\n');
      expect(await readFile(path.join(workspace, '.git', 'config'), 'utf8')).toContain('name = person');
      expect(existsSync(path.join(workspace, '.git', 'hooks', 'post-checkout'))).toBe(true);
    });
  });
});
