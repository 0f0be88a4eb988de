// The walk a root worker makes of the workspace before a command: what it finds, and what it costs the
// rest of the worker (file operations in flight, an entry cap, progress for heartbeats). Real files.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, lstatSync, statSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceTooLargeError } from '../../../../src/runtime/tools/sandbox/errors';
import { PROGRESS_EVERY, SCAN_CONCURRENCY, SCAN_MAX_PENDING, scanWorkspace } from '../../../../src/runtime/tools/sandbox/workspace-scan';
import { removeTempDirs, tempDir } from '../tool-test-context';

const NOBODY = { uid: 65534, gid: 65534 };

/** A workspace of `folders` folders, each holding `files` empty files. */
async function wideWorkspace(folders: number, files: number): Promise<string> {
  const workspace = await tempDir('scan-ws-');
  for (let f = 0; f < folders; f += 1) {
    const folder = path.join(workspace, `f${f}`);
    await mkdir(folder);
    await Promise.all(Array.from({ length: files }, (_, i) => writeFile(path.join(folder, `x${i}`), '')));
  }
  return workspace;
}

/** File-system requests the process has waiting on libuv's thread pool now (promise and callback forms). */
function fsRequestsInFlight(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'FSReqPromise' || kind === 'FSReqCallback').length;
}

describe('scanWorkspace', () => {
  afterAll(removeTempDirs);

  it('finds the topmost protected paths and every .git folder, and skips hidden folders', async () => {
    const workspace = await tempDir('scan-ws-');
    await mkdir(path.join(workspace, '.git', 'hooks'), { recursive: true });
    await writeFile(path.join(workspace, '.git', 'config'), '');
    await writeFile(path.join(workspace, '.envrc'), '');
    await mkdir(path.join(workspace, 'sub', 'nested', '.git'), { recursive: true });
    await writeFile(path.join(workspace, 'sub', '.env.local'), '');
    await symlink('.envrc', path.join(workspace, '.npmrc'));
    await mkdir(path.join(workspace, 'hidden', '.git'), { recursive: true });
    await writeFile(path.join(workspace, 'plain.txt'), '');

    const scan = await scanWorkspace(workspace, { hidden: ['hidden'] });

    expect([...scan.protectedEntries.keys()].map((p) => path.relative(workspace, p)).sort()).toEqual(
      // A .git folder is protected whole (src/core/approvals/protected-paths.ts): it is the topmost.
      ['.envrc', '.git', '.npmrc', 'sub/.env.local', 'sub/nested/.git'].sort(),
    );
    expect(scan.protectedEntries.get(path.join(workspace, '.npmrc'))).toMatchObject({ kind: 'symlink', linkTarget: '.envrc' });
    expect(scan.gitDirs).toEqual([path.join(workspace, '.git'), path.join(workspace, 'sub', 'nested', '.git')]);
    // .git, hooks, config, .envrc, sub, nested, nested/.git, .env.local, .npmrc, plain.txt; not hidden/ or below.
    expect(scan.entries).toBe(10);
  });

  it('hands entries to the owner without following symlinks', async () => {
    const workspace = await tempDir('scan-ws-');
    const outside = await tempDir('scan-outside-');
    await writeFile(path.join(outside, 'host-file'), '');
    await mkdir(path.join(workspace, 'made-by-root'));
    await writeFile(path.join(workspace, 'made-by-root', 'file'), '');
    await symlink(path.join(outside, 'host-file'), path.join(workspace, 'link-out'));

    await scanWorkspace(workspace, { hidden: [], owner: NOBODY });

    for (const entry of ['', 'made-by-root', 'made-by-root/file', 'link-out']) expect(lstatSync(path.join(workspace, entry)).uid).toBe(NOBODY.uid);
    expect(lstatSync(path.join(outside, 'host-file')).uid).toBe(0);
  });

  // Written first and seen failing: root handed the host file to nobody within 9 walks (37 with the
  // first streaming walk), because the walk followed a folder swapped for a symlink after it saw it.
  it('never hands a file outside the workspace to the owner while a command swaps a folder for a symlink', async () => {
    const outside = await tempDir('scan-host-');
    await writeFile(path.join(outside, 'target'), 'a host file only root may read');
    const workspace = await tempDir('scan-ws-');
    await mkdir(path.join(workspace, 'a'));
    await writeFile(path.join(workspace, 'a', 'target'), '');
    for (const entry of ['', 'a', 'a/target']) chownSync(path.join(workspace, entry), NOBODY.uid, NOBODY.gid);
    // Another run's command on the same workspace, as the sandbox user: `a` flips between its folder and a link out.
    const swap = [
      'import os, time',
      `os.chdir(${JSON.stringify(workspace)})`,
      'while True:',
      `  os.rename('a', 'a.d'); os.symlink(${JSON.stringify(outside)}, 'a'); time.sleep(0.0005); os.unlink('a'); os.rename('a.d', 'a'); time.sleep(0.0005)`,
    ].join('\n');
    const swapper = spawn('/usr/bin/setpriv', [`--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups', '/usr/bin/python3', '-c', swap], { stdio: 'ignore' });
    const ended = new Promise((resolve) => swapper.once('exit', (code, signal) => resolve(signal ?? code)));
    let walks = 0;
    try {
      for (const deadline = Date.now() + 5_000; Date.now() < deadline && lstatSync(path.join(outside, 'target')).uid === 0; walks += 1) {
        await scanWorkspace(workspace, { hidden: [], owner: NOBODY });
      }
    } finally {
      swapper.kill('SIGKILL');
    }
    expect(lstatSync(path.join(outside, 'target')).uid, `after ${walks} walks`).toBe(0);
    // The swapper ran all along (a python3 that failed to start would make this pass for nothing).
    expect(await ended).toBe('SIGKILL');
    expect(walks).toBeGreaterThan(20);
  });

  // Written first and seen failing: the walk it replaces queued an lstat for every entry at once.
  it(`keeps at most ${SCAN_CONCURRENCY} file operations in flight, however wide the workspace`, async () => {
    const workspace = await wideWorkspace(10, 100);
    // One folder too large to list in one read (long names take room): it is streamed a batch at a time.
    const big = path.join(workspace, 'f0');
    for (let i = 0; i < 2_000; i += 1) await writeFile(path.join(big, `an-entry-with-a-rather-long-name-${i}`), '');
    expect(statSync(big).size).toBeGreaterThan(64 * 1024);
    // Requests of others (the test runner's own) are counted too: take them as they stand before.
    let baseline = 0;
    for (let i = 0; i < 20; i += 1) {
      baseline = Math.max(baseline, fsRequestsInFlight());
      await new Promise((resolve) => setImmediate(resolve));
    }
    let most = 0;
    let walking = true;
    const sampler = (async () => {
      while (walking) {
        most = Math.max(most, fsRequestsInFlight());
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const scan = await scanWorkspace(workspace, { hidden: [], owner: NOBODY });
    walking = false;
    await sampler;
    expect(scan.entries).toBe(10 * 101 + 2_000);
    expect(most).toBeGreaterThan(0);
    expect(most - baseline).toBeLessThanOrEqual(SCAN_CONCURRENCY);
  });

  it('reports its progress as it walks, so the activity can heartbeat', async () => {
    const workspace = await wideWorkspace(5, 3 * PROGRESS_EVERY / 5);
    const told: number[] = [];
    const scan = await scanWorkspace(workspace, { hidden: [], onProgress: (entries) => told.push(entries) });
    expect(scan.entries).toBe(5 + 3 * PROGRESS_EVERY);
    expect(told).toEqual([PROGRESS_EVERY, 2 * PROGRESS_EVERY, 3 * PROGRESS_EVERY]);
  });

  it('stops past maxEntries with an error that says how many, why and what to do', async () => {
    const workspace = await wideWorkspace(10, 30);
    const scan = scanWorkspace(workspace, { hidden: [], maxEntries: 100 });
    await expect(scan).rejects.toBeInstanceOf(WorkspaceTooLargeError);
    const error = (await scan.catch((e: unknown) => e)) as WorkspaceTooLargeError;
    expect(error.message).toMatch(/^The workspace has more than 100 entries \(files, folders and links\), so this command was not run\./);
    expect(error.message).toContain('AGENT_SCAN_MAX_ENTRIES');
    expect(error.message).toContain('commands that only read');
    // Exactly at the cap is still fine.
    expect((await scanWorkspace(workspace, { hidden: [], maxEntries: 310 })).entries).toBe(310);
  });

  it('stops when the call is cancelled', async () => {
    const workspace = await wideWorkspace(4, 2 * PROGRESS_EVERY);
    const abort = new AbortController();
    const scan = scanWorkspace(workspace, { hidden: [], signal: abort.signal, onProgress: () => abort.abort(new Error('cancelled by the test')) });
    await expect(scan).rejects.toThrow('cancelled by the test');
  });

  it(`walks a folder of more folders than it keeps waiting (${SCAN_MAX_PENDING} in a worker), reading the rest depth first`, async () => {
    const workspace = await tempDir('scan-ws-');
    const many = path.join(workspace, 'many');
    await mkdir(many);
    for (let i = 0; i < 300; i += 1) await mkdir(path.join(many, `d${i}`));
    // Folders read at once, past the limit, are walked all the same: protected paths deep in them are found.
    const planted = [7, 150, 299].map((i) => path.join(many, `d${i}`, 'nested', '.git', 'config'));
    for (const config of planted) {
      await mkdir(path.dirname(config), { recursive: true });
      await writeFile(config, '');
    }
    const scan = await scanWorkspace(workspace, { hidden: [], maxPending: 10 });
    expect(scan.entries).toBe(1 + 300 + 3 * 3);
    const gitDirs = planted.map((config) => path.dirname(config)).sort();
    expect([...scan.protectedEntries.keys()].sort()).toEqual(gitDirs);
    expect(scan.gitDirs).toEqual(gitDirs);
  });

  // Seen failing against the walk before it (written after the fix): it skipped a folder it could not read, and what lay in it.
  it('fails, rather than skip it, when a worker that is not root cannot read a folder', async () => {
    const workspace = await tempDir('scan-ws-');
    await mkdir(path.join(workspace, 'locked', '.git'), { recursive: true });
    await writeFile(path.join(workspace, 'locked', '.git', 'config'), '[core]\n\tfsmonitor = planted\n');
    for (const entry of ['', 'locked', 'locked/.git', 'locked/.git/config']) chownSync(path.join(workspace, entry), NOBODY.uid, NOBODY.gid);
    // A command as the worker's own user made it unreadable, to hide what it planted there.
    await chmod(path.join(workspace, 'locked'), 0o000);
    const walk = spawnSync('/usr/bin/setpriv', [`--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups', process.execPath, '--import', 'tsx', path.join(__dirname, 'scan-as-worker.ts'), workspace], {
      cwd: path.resolve(__dirname, '../../../..'),
      encoding: 'utf8',
    });
    expect(walk.status, walk.stderr).toBe(0);
    const outcome = JSON.parse(walk.stdout) as { name?: string; message?: string };
    expect(outcome.name).toBe('WorkspaceUnreadableError');
    expect(outcome.message).toMatch(/^The worker could not read the folder locked in the workspace \(EACCES\), so it cannot check it for protected paths/);
  });
});
