// Mode none: no sandbox, but still a clean environment and no process left behind.
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProcessStartError } from '../../../../src/contract/errors';
import { detectChildGuard } from '../../../../src/runtime/tools/sandbox/child-guard';
import type { ProcessRunner } from '../../../../src/runtime/tools/sandbox/process-runner';
import { removeTempDirs, tempDir } from '../tool-test-context';
import { SandboxEnforcementError } from '../../../../src/runtime/tools/sandbox/errors';
import { eventually, PERSON_APPROVED, processesWith, RULE_WRITES, runIn, runnerFor, workerSecrets } from './sandbox-test-support';

describe('process runner in mode none', () => {
  let runner: ProcessRunner;
  let workspace: string;
  // Mode none runs only calls a person approved (it cannot make anything read-only).
  const run = (command: string, extra = {}) => runIn(runner, workspace, command, { permission: PERSON_APPROVED, ...extra });

  beforeAll(() => {
    runner = runnerFor('none');
  });
  beforeEach(async () => {
    workspace = await tempDir('unsandboxed-ws-');
  });
  afterAll(removeTempDirs);

  it('reports that it is not sandboxed', async () => {
    expect(runner.mode).toEqual({ mode: 'none', reason: 'AGENT_SANDBOX=none was set' });
    expect((await run('true')).sandboxed).toBe(false);
  });

  it("still hides the worker's environment, with the working directory on the workspace and HOME a fresh folder of the call's own", async () => {
    const { output } = await run('env; pwd');
    for (const [name, value] of Object.entries(workerSecrets)) {
      expect(output).not.toContain(name);
      expect(output).not.toContain(value);
    }
    expect(output).toContain('TOOL_ALLOWED=allowed-value');
    const home = /^HOME=(.*)$/m.exec(output)![1]!;
    expect(home).toMatch(/\/agent-home-[^/]+$/);
    expect(existsSync(home)).toBe(false);
    expect(output.endsWith(`${workspace}\n`)).toBe(true);
  });

  it('kills what the command left running in the background when it exits', async () => {
    const marker = `301.${randomInt(100_000_000, 999_999_999)}`;
    const started = Date.now();
    const { output } = await run(`sleep ${marker} & echo started`);
    expect(output).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await eventually(() => processesWith(marker).length === 0, 2_000)).toBe(true);
  });

  it('kills the command and its children when the timeout passes', async () => {
    const marker = `302.${randomInt(100_000_000, 999_999_999)}`;
    const result = await run(`sleep ${marker} & sleep ${marker}`, { timeoutMs: 300 });
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    expect(await eventually(() => processesWith(marker).length === 0, 2_000)).toBe(true);
  });

  it('kills the command when the signal aborts, and does not start one for an aborted signal', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    expect(await run('sleep 30', { signal: abort.signal })).toMatchObject({ aborted: true, signal: 'SIGKILL' });
    expect(await run('touch made', { signal: abort.signal })).toMatchObject({ aborted: true, exitCode: null, output: '' });
  });

  it('refuses a call no person approved, since it cannot keep anything read-only, and runs nothing', async () => {
    for (const permission of [RULE_WRITES, undefined]) {
      const refused = runIn(runner, workspace, 'touch made', permission ? { permission } : {});
      await expect(refused).rejects.toThrow(SandboxEnforcementError);
      await expect(refused).rejects.toThrow(/runs only commands a person approved/);
    }
    expect(existsSync(path.join(workspace, 'made'))).toBe(false);
  });

  it('rejects with ProcessStartError when the process cannot start', async () => {
    await expect(run('true', { workspace: path.join(workspace, 'missing') })).rejects.toThrow(ProcessStartError);
  });
});

describe('detectChildGuard', () => {
  afterAll(removeTempDirs);

  it('uses a PID namespace tied to the worker when setpriv and unshare work here', () => {
    const guard = detectChildGuard(process.env);
    // Which one a host gets depends on it; both are valid outcomes, but each must say what it is.
    if (guard.kind === 'pid-namespace') {
      expect(guard.prefix.slice(1, 3)).toEqual(['--pdeathsig', 'KILL']);
      expect(guard.prefix).toEqual(expect.arrayContaining(['--pid', '--fork', '--kill-child']));
    } else {
      expect(guard.reason).not.toBe('');
    }
  });

  it('falls back to a process group, saying why, without setpriv and unshare', async () => {
    expect(detectChildGuard({ PATH: await tempDir('empty-path-') })).toEqual({
      kind: 'process-group',
      reason: 'setpriv or unshare (util-linux) was not found on PATH',
    });
  });
});
