// What the processes inside the sandbox can read of each other through /proc: bwrap is PID 1 there,
// and its argv used to carry every mount, host path and variable of the call. Real bwrap, root worker
// (commands as nobody), a call a rule let write (so protected paths are mounted too).
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessStartError } from '../../../../src/contract/errors';
import { createProcessRunner, type ProcessRunner } from '../../../../src/runtime/tools/sandbox/process-runner';
import { runProcess } from '../../../../src/runtime/tools/sandbox/run-process';
import { resolveSandboxMode } from '../../../../src/runtime/tools/sandbox/sandbox-mode';
import { DEFAULT_TOOL_PATH } from '../../../../src/runtime/tools/sandbox/tool-environment';
import { removeTempDirs, tempDir } from '../tool-test-context';
import { RULE_WRITES, runIn, workerSecrets } from './sandbox-test-support';

/** Prints, for every process it can see, its pid, then its cmdline and environ (NULs as spaces) or "unreadable". */
const LIST_PROCESSES = [
  'for p in /proc/[0-9]*; do',
  '  echo "pid ${p#/proc/}"',
  '  echo "cmdline $(tr "\\0" " " < "$p/cmdline" 2>/dev/null || echo unreadable)"',
  '  echo "environ $(tr "\\0" " " < "$p/environ" 2>/dev/null || echo unreadable)"',
  'done',
].join('\n');

interface SeenProcess {
  pid: number;
  cmdline: string;
  environ: string;
}

function parse(output: string): SeenProcess[] {
  const seen: SeenProcess[] = [];
  for (const line of output.split('\n')) {
    const [key, ...rest] = line.split(' ');
    const value = rest.join(' ');
    if (key === 'pid') seen.push({ pid: Number(value), cmdline: '', environ: '' });
    else if (key === 'cmdline') seen.at(-1)!.cmdline = value;
    else if (key === 'environ') seen.at(-1)!.environ = value;
  }
  return seen;
}

describe('/proc inside the sandbox', () => {
  const hidden = 'other-runs';
  let workspace: string;

  function runner(workerPath: string): ProcessRunner {
    return createProcessRunner({
      mode: resolveSandboxMode({ ...process.env, AGENT_SANDBOX: 'bwrap' }),
      envAllowList: ['TOOL_ALLOWED'],
      sourceEnv: { ...workerSecrets, PATH: workerPath, TOOL_ALLOWED: 'allowed-value' },
    });
  }

  async function processesSeen(workerPath: string): Promise<SeenProcess[]> {
    const result = await runIn(runner(workerPath), workspace, LIST_PROCESSES, { permission: RULE_WRITES, hiddenPaths: [hidden] });
    expect(result.exitCode, result.output).toBe(0);
    return parse(result.output);
  }

  beforeAll(async () => {
    workspace = await tempDir('proc-ws-');
    expect(spawnSync('git', ['init', '-q', workspace]).status).toBe(0);
    await mkdir(path.join(workspace, hidden));
  });
  afterAll(removeTempDirs);

  // Written first and seen failing: /proc/1/cmdline was bwrap's whole argv.
  it("shows bwrap's argv as only `--args 3` and the command: no mount, host path or variable", async () => {
    // The worker's own PATH names host folders (this checkout's node_modules/.bin among them).
    const seen = await processesSeen(process.env.PATH!);
    const pid1 = seen.find((p) => p.pid === 1)!;
    expect(pid1.cmdline).toMatch(/^\/\S*bwrap --args 3 -- \S*setpriv /);
    const hostOnly = [process.cwd(), path.dirname(workspace), path.join(workspace, hidden), '--setenv', '--bind', '--ro-bind', '--tmpfs', 'allowed-value', ...Object.values(workerSecrets)];
    for (const { pid, cmdline } of seen) {
      for (const text of hostOnly) expect(cmdline.includes(text), `/proc/${pid}/cmdline shows ${text}: ${cmdline}`).toBe(false);
    }
  });

  it('shows no host path in any environment the sandbox user can read, and none of the worker\'s variables', async () => {
    const seen = await processesSeen(DEFAULT_TOOL_PATH);
    // PID 1 is bwrap: started with an empty environment, and root's besides.
    expect(['', 'unreadable']).toContain(seen.find((p) => p.pid === 1)!.environ.trim());
    const readable = seen.filter((p) => p.environ !== 'unreadable' && p.environ.trim() !== '');
    expect(readable.length).toBeGreaterThan(0);
    for (const { pid, environ } of readable) {
      for (const text of [process.cwd(), path.join(workspace, hidden), ...Object.values(workerSecrets)]) {
        expect(environ.includes(text), `/proc/${pid}/environ shows ${text}: ${environ}`).toBe(false);
      }
      expect(environ).toContain('TOOL_ALLOWED=allowed-value');
    }
  });

  // The options travel NUL-separated: one holding a NUL would end early and start an option of its own.
  it('refuses an option holding a NUL byte rather than let it smuggle in another option', async () => {
    const launch = runProcess({
      argv: ['/usr/bin/true'],
      argsOnFd3: ['--setenv', 'X', 'value\0--bind\0/\0/host'],
      cwd: workspace,
      env: {},
      timeoutMs: 5_000,
      signal: new AbortController().signal,
      outputLimit: 100,
    });
    await expect(launch).rejects.toBeInstanceOf(ProcessStartError);
    await expect(launch).rejects.toThrow('an argument holds a NUL byte');
  });
});
