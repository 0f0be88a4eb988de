// The launcher that joins a command's cgroups, and what the model is told about them.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CommandLimitsSchema } from '../../../../../src/contract/command-limits';
import { describeCgroupHits, enterCgroupArgv } from '../../../../../src/runtime/tools/sandbox/cgroups/cgroup-launch';
import { removeTempDirs, tempDir } from '../../tool-test-context';

afterAll(removeTempDirs);

const none = { oomKills: 0, forkRefusals: 0, periods: 0, throttledPeriods: 0, throttledSeconds: 0 };
const limits = CommandLimitsSchema.parse({ totalMemoryBytes: 512 * 1024 ** 2, totalProcesses: 64, cpuCores: 1 });

describe('enterCgroupArgv', () => {
  const run = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });

  it('writes its own pid into every cgroup.procs, then becomes the launcher (same pid)', async () => {
    const dir = await tempDir('cgroup-enter-');
    const files = [path.join(dir, 'a.procs'), path.join(dir, 'b.procs')];
    const result = run(enterCgroupArgv('/usr/bin/bash', files, ['/usr/bin/bash', '-c', 'echo "$$"']));
    expect(result.status).toBe(0);
    const pid = result.stdout.trim();
    expect(readFileSync(files[0]!, 'utf8')).toBe(`${pid}\n`);
    expect(readFileSync(files[1]!, 'utf8')).toBe(`${pid}\n`);
  });

  it('runs nothing when it cannot join a cgroup, and says so', async () => {
    const dir = await tempDir('cgroup-enter-');
    const marker = path.join(dir, 'ran');
    const result = run(enterCgroupArgv('/usr/bin/bash', [path.join(dir, 'a.procs'), path.join(dir, 'missing/cgroup.procs')], ['/usr/bin/touch', marker]));
    expect(result.status).toBe(125);
    expect(result.stderr).toContain('could not move the command into its cgroup');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('describeCgroupHits', () => {
  it('says nothing when no limit was hit', () => {
    expect(describeCgroupHits(none, limits, true)).toBeUndefined();
  });

  it('names the limit and its value for an OOM kill and for refused forks, success or not', () => {
    expect(describeCgroupHits({ ...none, oomKills: 2, forkRefusals: 1 }, limits, false)).toBe(
      'The command used its 512 MiB of memory (limits.totalMemoryBytes, all its processes and /tmp together), and the kernel killed 2 processes of it (out of memory). ' +
        'The command tried to run more than 64 processes at once (limits.totalProcesses); a fork was refused.',
    );
  });

  it('reports CPU throttling only for a call that failed or timed out', () => {
    const slowed = { ...none, periods: 40, throttledPeriods: 30, throttledSeconds: 2.5 };
    expect(describeCgroupHits(slowed, limits, false)).toBeUndefined();
    expect(describeCgroupHits(slowed, limits, true)).toBe('The command was held to 1 CPU core (limits.cpuCores): held back in 30 of 40 periods of 100 ms (2.5 s in all).');
  });
});
