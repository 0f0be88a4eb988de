// AGENT_COMMAND_CGROUPS from the worker's settings to a real command run by the shell tool, on this
// machine's kernel (cgroup v1 memory, pids and cpu writable, worker as root): `off` gives commands
// no cgroup and leaves the host's cgroups alone; `auto` (the default) gives each one its own.
// The `off` tests come first: detection runs once per process, and `auto` would then have done it.
import { mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommandLimitsSchema } from '../../../src/contract/command-limits';
import { parseWorkerSettings } from '../../../src/runtime/config/worker-settings';
import { shellTool } from '../../../src/runtime/tools/builtin/shell';
import { runnerForAgent } from '../../../src/runtime/tools/sandbox/agent-runner';
import type { ProcessRunner } from '../../../src/runtime/tools/sandbox/process-runner';
import { toolProcessRunner } from '../../../src/runtime/worker-setup/tool-process-runner';
import { leftoverCgroups, ownCgroups } from '../tools/sandbox/cgroups/cgroup-test-support';
import { PERSON_APPROVED } from '../tools/sandbox/sandbox-test-support';
import { removeTempDirs, tempDir, toolContext } from '../tools/tool-test-context';

/** A command cgroup an earlier worker with this pid left behind: detection removes it at start. */
const planted = ownCgroups().map((dir) => path.join(dir, `durable-agent-${process.pid}-cmd-999`));
const isPlanted = (dir: string) => planted.includes(dir);

/** The runner a worker builds from these variables, and the warnings it logged while doing so. */
function runnerFrom(env: NodeJS.ProcessEnv): { runner: ProcessRunner; warnings: string[] } {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const settings = parseWorkerSettings({ AGENT_AUDIT_LOG: 'off', AGENT_AUDIT_HEAD_DIR: '/var/tmp/heads', PATH: process.env.PATH, ...env });
  const runner = toolProcessRunner(settings);
  const warnings = warn.mock.calls.map((args) => String(args[0]));
  warn.mockRestore();
  return { runner, warnings };
}

async function shell(runner: ProcessRunner, command: string) {
  const processes = runnerForAgent(runner, { env: [], limits: CommandLimitsSchema.parse({ totalProcesses: 64 }) });
  return shellTool.execute({ command, timeoutSeconds: 30 }, toolContext(await tempDir('cgroup-switch-'), undefined, { processes, permission: PERSON_APPROVED }));
}

/** The command's memory, pids and cpu lines of /proc/self/cgroup (mode none sees the host's paths). */
const CGROUP_LINES = 'grep -E "^[0-9]+:(memory|pids|cpu):" /proc/self/cgroup';
const ownLines = () => readFileSync('/proc/self/cgroup', 'utf8').split('\n').filter((l) => /^\d+:(memory|pids|cpu):/.test(l));

/** Runs a 2 s command under bwrap and watches this worker's cgroups from outside meanwhile. */
async function commandCgroupsSeenDuring(runner: ProcessRunner): Promise<string[]> {
  const seen = new Set<string>();
  const run = shell(runner, 'sleep 2');
  const watch = setInterval(() => leftoverCgroups().filter((dir) => !isPlanted(dir)).forEach((dir) => seen.add(dir)), 50);
  const result = await run.finally(() => clearInterval(watch));
  expect(result.success, result.output).toBe(true);
  return [...seen];
}

beforeAll(() => {
  for (const dir of planted) mkdirSync(dir);
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  for (const dir of planted.filter((d) => leftoverCgroups().includes(d))) rmdirSync(dir);
  await removeTempDirs();
});

describe('toolProcessRunner with AGENT_COMMAND_CGROUPS=off', () => {
  it('says at start which limits are not enforced and why, and removes no leftover cgroup', () => {
    const { warnings } = runnerFrom({ AGENT_SANDBOX: 'none', AGENT_COMMAND_CGROUPS: 'off' });
    const notice = warnings.find((w) => w.includes('Per-command cgroup limits'));
    expect(notice).toContain('not enforced for memory (limits.totalMemoryBytes), processes (limits.totalProcesses), CPU (limits.cpuCores), because AGENT_COMMAND_CGROUPS=off');
    expect(notice).toContain('The rlimits (limits.cpuSeconds, memoryBytes, fileSizeBytes, openFiles, processes)');
    expect(leftoverCgroups().filter(isPlanted)).toEqual(planted);
  });

  it('runs a command in the worker\'s own cgroups, with its rlimits (mode none)', async () => {
    const { runner } = runnerFrom({ AGENT_SANDBOX: 'none', AGENT_COMMAND_CGROUPS: 'off' });
    const result = await shell(runner, `${CGROUP_LINES}; ulimit -u`);
    expect(result).toMatchObject({ success: true, output: `exit code 0\n${ownLines().join('\n')}\n256\n` });
    expect(leftoverCgroups()).toEqual(planted);
  });

  it('makes no cgroup while a command runs under bwrap', async () => {
    const { runner } = runnerFrom({ AGENT_SANDBOX: 'bwrap', AGENT_COMMAND_CGROUPS: 'off' });
    expect(await commandCgroupsSeenDuring(runner)).toEqual([]);
    expect(leftoverCgroups()).toEqual(planted);
  });
});

describe('toolProcessRunner with AGENT_COMMAND_CGROUPS unset (auto)', () => {
  it('finds the v1 hierarchies at start, without a notice, and removes the leftovers of its pid', () => {
    const { warnings } = runnerFrom({ AGENT_SANDBOX: 'none' });
    expect(warnings.filter((w) => w.includes('cgroup'))).toEqual([]);
    expect(leftoverCgroups()).toEqual([]);
  });

  it('runs a command in a cgroup of its own, gone afterwards (mode none)', async () => {
    const { runner } = runnerFrom({ AGENT_SANDBOX: 'none', AGENT_COMMAND_CGROUPS: 'auto' });
    const result = await shell(runner, CGROUP_LINES);
    expect(result.success).toBe(true);
    const lines = result.output.split('\n').filter((l) => /^\d+:/.test(l));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(new RegExp(`/durable-agent-${process.pid}-cmd-\\d+$`));
    expect(leftoverCgroups()).toEqual([]);
  });

  it('makes one cgroup per hierarchy while a command runs under bwrap', async () => {
    const { runner } = runnerFrom({ AGENT_SANDBOX: 'bwrap' });
    const seen = await commandCgroupsSeenDuring(runner);
    expect(seen).toHaveLength(3);
    for (const dir of seen) expect(path.basename(dir)).toMatch(new RegExp(`^durable-agent-${process.pid}-cmd-\\d+$`));
    expect(leftoverCgroups()).toEqual([]);
  });
});
