// Never root on the host: a root worker runs commands as an unprivileged user, or does not start.
import { spawnSync } from 'node:child_process';
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxUserError } from '../../../../src/runtime/tools/sandbox/errors';
import { createProcessRunner } from '../../../../src/runtime/tools/sandbox/process-runner';
import { resolveSandboxMode } from '../../../../src/runtime/tools/sandbox/sandbox-mode';
import { resolveSandboxUser } from '../../../../src/runtime/tools/sandbox/sandbox-user';
import { removeTempDirs, tempDir } from '../tool-test-context';
import { PERSON_APPROVED, runIn, runnerFor } from './sandbox-test-support';

const isRoot = process.getuid?.() === 0;

describe('resolveSandboxUser', () => {
  it('leaves a worker that is not root as it is: its commands are not root either', () => {
    expect(resolveSandboxUser('root', false)).toBeUndefined();
  });

  it('picks nobody by default, and takes a user name or uid[:gid]', () => {
    expect(resolveSandboxUser(undefined, true)).toMatchObject({ name: 'nobody', uid: 65534, gid: 65534, setpriv: expect.stringMatching(/setpriv$/) });
    expect(resolveSandboxUser('4242:4343', true)).toMatchObject({ uid: 4242, gid: 4343 });
    expect(resolveSandboxUser('4242', true)).toMatchObject({ uid: 4242, gid: 4242 });
  });

  it('refuses root, and a user that does not exist, so the worker does not start', () => {
    for (const user of ['root', '0', '1000:0']) {
      expect(() => resolveSandboxUser(user, true)).toThrow(SandboxUserError);
    }
    expect(() => resolveSandboxUser('root', true)).toThrow(/must not/);
    expect(() => resolveSandboxUser('no-such-user-here', true)).toThrow(/not a user in \/etc\/passwd/);
  });

  it.runIf(isRoot)('stops a root worker from building its process runner with AGENT_SANDBOX_USER=root', () => {
    const build = () => createProcessRunner({ mode: resolveSandboxMode({ ...process.env, AGENT_SANDBOX: 'bwrap' }), envAllowList: [], sourceEnv: process.env, sandboxUser: 'root' });
    expect(build).toThrow(SandboxUserError);
  });
});

describe.runIf(isRoot).each(['bwrap', 'none'] as const)('a root worker in mode %s', (mode) => {
  afterAll(removeTempDirs);
  const runner = runnerFor(mode);

  it('runs commands as nobody, with no capability, and they cannot read /etc/shadow', async () => {
    const workspace = await tempDir('user-ws-');
    const result = await runIn(runner, workspace, 'id -u; id -g; grep CapEff /proc/self/status; cat /etc/shadow', { permission: PERSON_APPROVED });
    expect(result.output).toMatch(/^65534\n65534\nCapEff:\s+0+\n/);
    expect(result.output).toContain('cat: /etc/shadow: Permission denied');
    expect(result.exitCode).not.toBe(0);
    expect(runner.fileOwner).toEqual({ uid: 65534, gid: 65534 });
  });

  it("hands the workspace to that user, so it can change what the worker's tools left there", async () => {
    const workspace = await tempDir('user-ws-');
    await mkdir(path.join(workspace, 'src'));
    await writeFile(path.join(workspace, 'src', 'main.ts'), 'by root\n', { mode: 0o600 });
    const result = await runIn(runner, workspace, 'cat src/main.ts && echo changed > src/main.ts && mkdir out && echo made > out/new.txt', {
      permission: PERSON_APPROVED,
    });
    expect(result).toMatchObject({ exitCode: 0, output: 'by root\n' });
    for (const p of ['', 'src', 'src/main.ts', 'out/new.txt']) {
      const stat = await lstat(path.join(workspace, p));
      expect({ p, uid: stat.uid, gid: stat.gid }).toEqual({ p, uid: 65534, gid: 65534 });
    }
  });

  it('cannot use sudo, su or a setuid program to become root again', async () => {
    const workspace = await tempDir('user-ws-');
    const probe = spawnSync('bash', ['-c', 'command -v su']);
    const su = probe.stdout.toString().trim() || '/bin/su';
    const result = await runIn(runner, workspace, `${su} -c id root </dev/null; python3 -c "import os; os.setuid(0)"; id -u`, { permission: PERSON_APPROVED });
    expect(result.output.trim().split('\n').at(-1)).toBe('65534');
    expect(result.output).not.toMatch(/uid=0\(root\)/);
  });
});

describe.runIf(isRoot)('a root worker under bwrap, with its workspace below root-only folders', () => {
  it('lets the command reach the workspace by its absolute path (bwrap makes the folders above it walkable)', async () => {
    const { mkdtemp, chmod, rm } = await import('node:fs/promises');
    const outer = await mkdtemp('/var/tmp/root-only-');
    try {
      await chmod(outer, 0o700);
      const workspace = path.join(outer, 'deep', 'workspace');
      await mkdir(workspace, { recursive: true });
      await writeFile(path.join(workspace, 'notes.txt'), 'by root\n');
      const result = await runIn(runnerFor('bwrap'), workspace, `id -u; cat ${path.join(workspace, 'notes.txt')}; echo more >> "$PWD/notes.txt" && cat notes.txt`, {
        permission: PERSON_APPROVED,
      });
      expect(result).toMatchObject({ exitCode: 0, output: '65534\nby root\nby root\nmore\n' });
    } finally {
      await rm(outer, { recursive: true, force: true });
    }
  });
});
