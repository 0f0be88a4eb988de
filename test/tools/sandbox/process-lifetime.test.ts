// No process a tool starts may outlive the worker: SIGKILL a stand-in worker process and look for
// its command's processes on the host.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../tool-test-context';
import { eventually, processesWith, runnerFor } from './sandbox-test-support';

const repoRoot = path.resolve(__dirname, '../../..');
const fixture = path.join(__dirname, 'run-long-command.ts');
const noneGuard = runnerFor('none').childGuard;

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
