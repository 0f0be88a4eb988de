// No process a tool starts may outlive the worker: SIGKILL a stand-in worker process and look for
// its command's processes on the host.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../tool-test-context';
import { eventually, processesWith, runnerFor } from './sandbox-test-support';

const repoRoot = path.resolve(__dirname, '../../../..');
const fixture = path.join(__dirname, 'run-long-command.ts');
const dyingFixture = path.join(__dirname, 'spawn-then-die.ts');
const noneGuard = runnerFor('none').childGuard;

/** A process that exited but was not reaped (its parent died too, so init reaps it soon) counts as gone. */
function readZombie(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}

describe('process lifetime', () => {
  afterAll(removeTempDirs);

  async function killWorkerAndLookForSurvivors(mode: 'bwrap' | 'none'): Promise<number[]> {
    // A sleep duration no other process on the host uses, so it identifies this command's processes.
    const marker = `300.${randomInt(100_000_000, 999_999_999)}`;
    const worker = spawn(process.execPath, ['--import', 'tsx', fixture, mode, await tempDir('lifetime-ws-')], {
      cwd: repoRoot,
      env: { ...process.env, LONG_COMMAND_MARKER: marker },
      stdio: 'ignore',
    });
    try {
      // The launcher (bwrap, or setpriv/unshare), the shell and its three sleeps.
      const started = await eventually(() => processesWith(marker).length >= 5, 20_000);
      expect(started, `the command never started: ${processesWith(marker).length} processes`).toBe(true);
      worker.kill('SIGKILL');
      await eventually(() => processesWith(marker).length === 0, 5_000);
      return processesWith(marker);
    } finally {
      worker.kill('SIGKILL');
      // Survivors are this test's own processes; end them by id so a failure does not leave them running.
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    }
  }

  /**
   * The worker dies right after forking the launcher, before the launcher has armed its death
   * signal. Whether, within 10 s, the launcher is gone and nothing of the command runs: an orphaned
   * command would still be sleeping. (It may have started before the watch saw the worker gone.)
   */
  async function dieRightAfterSpawn(mode: 'bwrap' | 'none' | 'none-process-group'): Promise<boolean> {
    const marker = `300.${randomInt(100_000_000, 999_999_999)}`;
    const workspace = await tempDir('lifetime-ws-');
    const worker = spawn(process.execPath, ['--import', 'tsx', dyingFixture, mode, workspace], {
      cwd: repoRoot,
      env: { ...process.env, LONG_COMMAND_MARKER: marker },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let printed = '';
      worker.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      await new Promise((resolve) => worker.once('exit', resolve));
      const launcher = Number(printed.trim());
      expect(launcher, `the stand-in worker printed no launcher pid: ${JSON.stringify(printed)}`).toBeGreaterThan(0);
      const gone = () => !existsSync(`/proc/${launcher}`) || readZombie(launcher);
      return await eventually(() => gone() && processesWith(marker).length === 0, 10_000);
    } finally {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    }
  }

  it('under bwrap, leaves nothing running when the worker dies before bwrap could arm --die-with-parent', async () => {
    expect(await dieRightAfterSpawn('bwrap')).toBe(true);
  });

  it.skipIf(noneGuard?.kind !== 'pid-namespace')(
    'in mode none with the PID-namespace guard, leaves nothing running when the worker dies before setpriv could arm --pdeathsig',
    async () => {
      expect(await dieRightAfterSpawn('none')).toBe(true);
    },
  );

  // No launcher arms a death signal here, so without the watch (liveness-gate.ts) the command always survives.
  it('in mode none with only the process-group guard, ends the command when the worker dies', async () => {
    expect(await dieRightAfterSpawn('none-process-group')).toBe(true);
  });

  it('under bwrap, kills the whole command (setsid children included) when the worker is SIGKILLed', async () => {
    expect(await killWorkerAndLookForSurvivors('bwrap')).toEqual([]);
  });

  it.skipIf(noneGuard?.kind !== 'pid-namespace')(
    'in mode none with the PID-namespace guard, kills the whole command when the worker is SIGKILLed',
    async () => {
      expect(await killWorkerAndLookForSurvivors('none')).toEqual([]);
    },
  );
});
