// Per-command cgroups on this machine's kernel (cgroup v1 memory, pids and cpu hierarchies, worker
// as root), through the shell tool with the real bash and bubblewrap: what a command cannot undo,
// what each limit does when hit, what the model is told, and that each command's cgroup is gone after.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CommandLimitsSchema, type CommandLimitsInput } from '../../../../../src/contract/command-limits';
import { shellTool } from '../../../../../src/runtime/tools/builtin/shell';
import { runnerForAgent } from '../../../../../src/runtime/tools/sandbox/agent-runner';
import { cgroupsOfThisWorker } from '../../../../../src/runtime/tools/sandbox/cgroups/detect-cgroups';
import { createProcessRunner, type ProcessRunner } from '../../../../../src/runtime/tools/sandbox/process-runner';
import { resolveSandboxMode } from '../../../../../src/runtime/tools/sandbox/sandbox-mode';
import { removeTempDirs, tempDir, toolContext } from '../../tool-test-context';
import { eventually, hasProcessesOf, PERSON_APPROVED, runIn, runnerFor } from '../sandbox-test-support';
import { leftoverCgroups } from './cgroup-test-support';

const MiB = 1024 ** 2;

beforeAll(() => {
  // These tests are about the v1 controllers this machine has; fail loudly if the worker did not find them.
  const { host } = cgroupsOfThisWorker();
  expect(host?.version).toBe(1);
  expect(host?.controllers).toEqual(['memory', 'pids', 'cpu']);
});
afterAll(removeTempDirs);

describe.each(['bwrap', 'none'] as const)('a command in mode %s', (mode) => {
  let workspace: string;
  const runner = runnerFor(mode);
  const shell = (command: string, limits: CommandLimitsInput, timeoutSeconds = 30, base: ProcessRunner = runner) => {
    const processes = runnerForAgent(base, { env: [], limits: CommandLimitsSchema.parse(limits) });
    return shellTool.execute({ command, timeoutSeconds }, toolContext(workspace, undefined, { processes, permission: PERSON_APPROVED }));
  };

  beforeEach(async () => {
    workspace = await tempDir('cgroup-ws-');
  });

  it('cannot leave its cgroup, raise its limits or mount a cgroup filesystem: it is still killed at its memory', async () => {
    // Every way out a command could try: its parent's and the roots' cgroup.procs, its own and the
    // roots' limit files (the real paths in mode none; under bwrap there is no /sys at all), a new mount.
    const hostile = [
      'own=$(sed -n "s/^[0-9]*:memory://p" /proc/self/cgroup)',
      'for f in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/*/cgroup.procs "/sys/fs/cgroup/memory${own%/*}/cgroup.procs"; do',
      '  echo $$ > "$f" 2>/dev/null && echo "ESCAPED $f"',
      'done',
      'for f in "/sys/fs/cgroup/memory$own/memory.limit_in_bytes" /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/memory.max; do',
      '  echo 9223372036854771712 > "$f" 2>/dev/null && echo "RAISED $f"',
      'done',
      'mkdir -p /tmp/cg && { mount -t cgroup -o memory none /tmp/cg || mount -t cgroup2 none /tmp/cg; } 2>/dev/null && echo MOUNTED',
      'python3 -c "b = b\'x\' * (512 * 1024**2); print(\'ALLOCATED\')"',
    ].join('\n');
    const result = await shell(hostile, { totalMemoryBytes: 128 * MiB });
    expect(result.output).not.toMatch(/ESCAPED|RAISED|MOUNTED|ALLOCATED/);
    expect(result.success).toBe(false);
    expect(result.output).toContain('The command used its 128 MiB of memory (limits.totalMemoryBytes');
    expect(result.output).toContain('out of memory');
    expect(leftoverCgroups()).toEqual([]);
  });

  it('runs in a cgroup of its own from its first instruction, which is gone afterwards', async () => {
    // In mode none /proc/self/cgroup shows the host's path; under bwrap the cgroup namespace shows "/".
    const result = await shell('grep -E "^[0-9]+:(memory|pids|cpu):" /proc/self/cgroup', {});
    expect(result.success).toBe(true);
    const lines = result.output.split('\n').filter((l) => /^\d+:/.test(l));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(mode === 'none' ? new RegExp(`/durable-agent-${process.pid}-cmd-\\d+$`) : /:\/$/);
    expect(leftoverCgroups()).toEqual([]);
  });

  it('is killed when its processes together allocate past totalMemoryBytes, and the model is told', async () => {
    // 2 GiB in one allocation: the address-space rlimit is raised so that the cgroup is what stops it.
    const result = await shell('python3 -c "b = b\'x\' * (2 * 1024**3); print(len(b))"', { memoryBytes: 8 * 1024 ** 3, totalMemoryBytes: 256 * MiB });
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^exit code 137\n/);
    expect(result.output).toContain('The command used its 256 MiB of memory (limits.totalMemoryBytes, all its processes and /tmp together), and the kernel killed a process of it (out of memory).');
    expect(leftoverCgroups()).toEqual([]);
    expect(await shell('echo still-here', {})).toMatchObject({ success: true, output: 'exit code 0\nstill-here\n' });
  });

  it('stops a fork bomb at totalProcesses, leaves nothing behind, and the worker answers the next call', async () => {
    // A uid of its own with a high RLIMIT_NPROC, so that pids.max, not the per-user rlimit, stops the bomb.
    const uid = mode === 'bwrap' ? 47_011 : 47_012;
    const bombRunner = runnerFor(mode, String(uid));
    const started = Date.now();
    const result = await shell(':(){ :|:& };:; sleep 2', { processes: 4096, totalProcesses: 32 }, 5, bombRunner);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/The command tried to run more than 32 processes at once \(limits.totalProcesses\); \d+ forks? (was|were) refused\./);
    // The cgroup's count is certain, so the rlimit's guess from the output is not repeated.
    expect(result.output).not.toContain('(limits.processes)');
    expect(await eventually(() => !hasProcessesOf(uid), 5_000)).toBe(true);
    expect(leftoverCgroups()).toEqual([]);
    const next = Date.now();
    expect(await shell('echo still-here', {})).toMatchObject({ success: true, output: 'exit code 0\nstill-here\n' });
    expect(Date.now() - next).toBeLessThan(5_000);
  });

  it('holds a busy loop to its cpuCores, says so when the call times out, and removes the cgroup after the kill', async () => {
    // 5 ms per 100 ms period: even on a busy shared host the loop gets that much, and is held back after it.
    const result = await shell('while :; do :; done', { cpuCores: 0.05 }, 3);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^Command timed out after 3s and was killed/);
    const note = /held to 0\.05 CPU cores \(limits\.cpuCores\): held back in (\d+) of (\d+) periods of 100 ms \(([\d.]+) s in all\)\./.exec(result.output);
    expect(note, result.output).not.toBeNull();
    // About 30 periods in 3 s; cpu.stat counts one as throttled when the loop used up its 5 ms in it.
    expect(Number(note![1])).toBeGreaterThanOrEqual(5);
    expect(Number(note![3])).toBeGreaterThan(0);
    expect(leftoverCgroups()).toEqual([]);
  });

  it('says nothing of CPU when a command that was slowed still succeeded', async () => {
    const result = await shell('timeout 1 sh -c "while :; do :; done"; echo done', { cpuCores: 0.2 });
    expect(result).toMatchObject({ success: true, output: 'exit code 0\ndone\n' });
  });
});

describe('a worker without cgroups', () => {
  it('runs commands with the rlimits only, in its own cgroup, and reports no cgroup limit', async () => {
    const workspace = await tempDir('cgroup-ws-');
    const runner = createProcessRunner({ mode: resolveSandboxMode({ ...process.env, AGENT_SANDBOX: 'none' }), envAllowList: [], sourceEnv: process.env, cgroups: null });
    const result = await runIn(runner, workspace, 'grep -E "^[0-9]+:pids:" /proc/self/cgroup; ulimit -u', { permission: PERSON_APPROVED, limits: { totalProcesses: 8, processes: 99 } });
    const ownPids = readFileSync('/proc/self/cgroup', 'utf8').split('\n').find((l) => /^\d+:pids:/.test(l));
    expect(result).toMatchObject({ exitCode: 0, output: `${ownPids}\n99\n` });
    expect(result.limitHit).toBeUndefined();
  });
});

