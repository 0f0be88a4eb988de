// Limits per command, hit for real under bwrap through the shell tool: each ends with a tool error
// that names the limit, and the same runner serves the next call normally.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigAgentSchema } from '../../src/runtime/config/agent-config-schema';
import { shellTool } from '../../src/runtime/tools/builtin/shell';
import { runnerForAgent } from '../../src/runtime/tools/sandbox/agent-runner';
import { CommandLimitsSchema, DEFAULT_COMMAND_LIMITS, ulimitCommands, type CommandLimitsInput } from '../../src/contract/command-limits';
import { removeTempDirs, tempDir, toolContext } from '../runtime/tools/tool-test-context';
import { eventually, hasProcessesOf, PERSON_APPROVED, runnerFor } from '../runtime/tools/sandbox/sandbox-test-support';

const GiB = 1024 ** 3;

describe('command limits under bwrap', () => {
  const runner = runnerFor('bwrap');
  let workspace: string;
  // RLIMIT_NPROC counts every process of the user, and other test files run commands as nobody at
  // the same time: the fork bomb gets a uid of its own, so its count and its survivors are its own.
  const bombUid = 47_001;
  const bombRunner = runnerFor('bwrap', String(bombUid));
  const shell = (command: string, limits?: CommandLimitsInput, timeoutSeconds = 30, base = runner) => {
    const processes = limits ? runnerForAgent(base, { env: [], limits: CommandLimitsSchema.parse(limits) }) : base;
    return shellTool.execute({ command, timeoutSeconds }, toolContext(workspace, undefined, { processes, permission: PERSON_APPROVED }));
  };
  /** The worker is healthy: a follow-up call on the same runner succeeds at once. */
  const followUpSucceeds = async () => {
    const started = Date.now();
    expect(await shell('echo still-here')).toMatchObject({ success: true, output: 'exit code 0\nstill-here\n' });
    expect(Date.now() - started).toBeLessThan(5_000);
  };

  beforeEach(async () => {
    workspace = await tempDir('limits-ws-');
  });
  afterAll(removeTempDirs);

  it('refuses a 2 GiB allocation with the default address-space limit, and says which limit', async () => {
    expect(DEFAULT_COMMAND_LIMITS.memoryBytes).toBe(2 * GiB);
    const result = await shell('python3 -c "b = bytearray(2 * 1024**3); print(len(b))"');
    expect(result.success).toBe(false);
    expect(result.output).toContain('MemoryError');
    expect(result.output).toContain('2 GiB of address space (limits.memoryBytes)');
    await followUpSucceeds();
  });

  it('stops a fork bomb at the process limit and names the limit', async () => {
    const started = Date.now();
    // The classic bomb returns at once, and when its first shell ends the sandbox's PID namespace
    // takes every copy with it, sometimes before any fork failed. The sleep keeps the command alive
    // while the bomb grows to the limit. It ends when its shell gives up forking or at the timeout;
    // both were seen. Either way the call ends with the limit named, and nothing of it lives on.
    const result = await shell(':(){ :|:& };:; sleep 2', { processes: 64 }, 5, bombRunner);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^(Command timed out after 5s and was killed|exit code \d+)/);
    expect(result.output).toContain('more than 64 processes (limits.processes)');
    // Nothing of the bomb survives its call.
    expect(await eventually(() => !hasProcessesOf(bombUid), 5_000)).toBe(true);
    await followUpSucceeds();
  });

  it('stops a 1 GiB write at the file-size limit', async () => {
    const result = await shell('head -c 1G /dev/zero > big.bin; echo after', { fileSizeBytes: 64 * 1024 ** 2 });
    expect(result.success).toBe(false);
    expect(result.output).toContain('larger than 64 MiB and was stopped (limits.fileSizeBytes)');
    expect((await stat(path.join(workspace, 'big.bin'))).size).toBe(64 * 1024 ** 2);
    await followUpSucceeds();
  });

  it('caps /tmp: a 1 GiB write there fills it and the model is told', async () => {
    const result = await shell('head -c 1G /dev/zero > /tmp/big.bin', { tmpBytes: 32 * 1024 ** 2 });
    expect(result.success).toBe(false);
    expect(result.output).toContain('No space left on device');
    expect(result.output).toContain('a full /tmp, which holds 32 MiB (limits.tmpBytes)');
    await followUpSucceeds();
  });

  it('stops a busy loop at its CPU time', async () => {
    const started = Date.now();
    const result = await shell('while :; do :; done', { cpuSeconds: 2 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({ success: false, output: expect.stringContaining('used its 2 s of CPU time and was stopped (limits.cpuSeconds)') });
    await followUpSucceeds();
  });

  it('limits open files', async () => {
    const result = await shell('python3 -c "fs = [open(\'/dev/null\') for _ in range(100)]"', { openFiles: 32 });
    expect(result.output).toContain('more than 32 open files (limits.openFiles)');
  });

  it('sets every limit as both soft and hard, so the command cannot raise it', async () => {
    const limits = { cpuSeconds: 7, memoryBytes: 512 * 1024 ** 2, fileSizeBytes: 8 * 1024 ** 2, openFiles: 100, processes: 50 };
    const result = await shell('for f in t v f n u; do ulimit -S -$f; ulimit -H -$f; done; ulimit -t 9 2>/dev/null || echo refused', limits);
    // CPU time: the hard limit is a second above the soft one, so SIGXCPU comes before SIGKILL.
    expect(result.output).toBe('exit code 0\n7\n8\n524288\n524288\n8192\n8192\n100\n100\n50\n50\nrefused\n');
  });
});

describe('an agent\'s limits', () => {
  const agent = { name: 'a', description: 'd', modelTier: 'fast', tools: ['shell'], systemPrompt: 'p', maxIterations: 3 };
  afterAll(removeTempDirs);

  it('are read from a config file agent, with the defaults for fields it leaves out', () => {
    const parsed = ConfigAgentSchema.parse({ ...agent, limits: { cpuSeconds: 10, processes: 32 } });
    expect(parsed.limits).toEqual({ ...DEFAULT_COMMAND_LIMITS, cpuSeconds: 10, processes: 32 });
    expect(ConfigAgentSchema.parse(agent).limits).toBeUndefined();
  });

  it('refuse a misspelt limit instead of ignoring it', () => {
    expect(ConfigAgentSchema.safeParse({ ...agent, limits: { cpuSecs: 10 } }).success).toBe(false);
  });

  it("reach the agent's commands through its runner, and a call's own limits win", async () => {
    const workspace = await tempDir('limits-ws-');
    const processes = runnerForAgent(runnerFor('bwrap'), { env: [], limits: CommandLimitsSchema.parse({ openFiles: 77 }) });
    const run = (limits?: CommandLimitsInput) =>
      processes.run({ command: 'ulimit -n', workspace, timeoutMs: 10_000, signal: new AbortController().signal, outputLimit: 1_000, ...(limits ? { limits } : {}) });
    expect((await run()).output).toBe('77\n');
    expect((await run({ openFiles: 55 })).output).toBe('55\n');
  });
});

describe('ulimitCommands', () => {
  it("converts the limits to bash's units", () => {
    expect(ulimitCommands(CommandLimitsSchema.parse({ cpuSeconds: 5, memoryBytes: GiB, fileSizeBytes: 2048, openFiles: 20, processes: 10 }))).toBe(
      'ulimit -t 6 -v 1048576 -f 2 -n 20 -u 10 && ulimit -S -t 5',
    );
  });

  it('refuses unknown or nonsensical limits', () => {
    expect(CommandLimitsSchema.safeParse({ cpuSecs: 5 }).success).toBe(false);
    expect(CommandLimitsSchema.safeParse({ processes: 0 }).success).toBe(false);
    expect(CommandLimitsSchema.safeParse({ cpuCores: 0 }).success).toBe(false);
    expect(CommandLimitsSchema.safeParse({ totalProcesses: 1 }).success).toBe(false);
    expect(CommandLimitsSchema.safeParse({ totalMemoryBytes: 1024 }).success).toBe(false);
  });

  it('gives the whole-command (cgroup) limits defaults that let builds run', () => {
    expect(DEFAULT_COMMAND_LIMITS).toMatchObject({ totalMemoryBytes: 4 * GiB, totalProcesses: 256, cpuCores: 2 });
  });
});
