// What a command run under bwrap can and cannot see or do, checked with the real bwrap.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { ProcessRunner } from '../../../../src/runtime/tools/sandbox/process-runner';
import { removeTempDirs, tempDir } from '../tool-test-context';
import { helloServer, lockFreed, PERSON_APPROVED, runIn, runnerFor, workerSecrets } from './sandbox-test-support';

describe('process runner under bwrap', () => {
  let runner: ProcessRunner;
  let workspace: string;
  const run = (command: string, extra = {}) => runIn(runner, workspace, command, extra);

  beforeAll(() => {
    runner = runnerFor('bwrap');
  });
  beforeEach(async () => {
    workspace = await tempDir('sandbox-ws-');
  });
  afterAll(removeTempDirs);

  it('reports that it is sandboxed', async () => {
    expect(runner.mode.mode).toBe('bwrap');
    expect((await run('true')).sandboxed).toBe(true);
  });

  it("hides the worker's environment and shows only allow-listed variables, with HOME a fresh folder of the call's own", async () => {
    const { output, exitCode } = await run('env; ls -A "$HOME" | wc -l; touch "$HOME/left"');
    expect(exitCode).toBe(0);
    for (const [name, value] of Object.entries(workerSecrets)) {
      expect(output).not.toContain(name);
      expect(output).not.toContain(value);
    }
    expect(output).toContain('TOOL_ALLOWED=allowed-value');
    expect(output).not.toContain('TOOL_EXTRA');
    // A fresh, empty, private HOME outside the workspace, removed when the command ends.
    const home = /^HOME=(.*)$/m.exec(output)![1]!;
    expect(home).toMatch(/\/agent-home-[^/]+$/);
    expect(output).toMatch(/^0$/m);
    expect(existsSync(home)).toBe(false);
    const second = (await run('echo "$HOME"; ls -A "$HOME"')).output;
    expect(second.trim()).not.toBe(home);
    expect(second.trim().split('\n')).toHaveLength(1);
    expect((await run('echo "$TOOL_EXTRA"', { extraEnvAllow: ['TOOL_EXTRA'] })).output).toBe('extra-value\n');
  });

  // The watch of liveness-gate.ts runs the command in the background; a quick one must still report its own status.
  it("reports a quick command's own exit status and output, every time", async () => {
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => run(`echo ${i}; exit ${i % 3}`)));
    expect(outcomes.map(({ output, exitCode }) => ({ output, exitCode }))).toEqual(Array.from({ length: 20 }, (_, i) => ({ output: `${i}\n`, exitCode: i % 3 })));
  });

  it('runs in the workspace and may write there', async () => {
    const { output, exitCode } = await run('pwd && echo inside > made.txt', { permission: PERSON_APPROVED });
    expect({ output, exitCode }).toEqual({ output: `${workspace}\n`, exitCode: 0 });
    expect(await readFile(path.join(workspace, 'made.txt'), 'utf8')).toBe('inside\n');
  });

  it('cannot write to the system, to /root or next to the workspace on the host', async () => {
    const name = `escape-${randomUUID()}`;
    const sibling = path.join(path.dirname(workspace), name);
    const targets = [`/etc/${name}`, `/usr/${name}`, `/root/${name}`, sibling];
    try {
      const { output } = await run(
        `touch /etc/${name} || echo etc-refused; touch /usr/${name} || echo usr-refused; ` +
          `mkdir -p /root && touch /root/${name} || echo root-refused; touch ${sibling}; echo done`,
      );
      expect(output).toMatch(/etc-refused[\s\S]*usr-refused[\s\S]*root-refused[\s\S]*done/);
      // The workspace's parent is under /tmp here, so that touch may land in the private /tmp: never on the host.
      for (const target of targets) expect(existsSync(target)).toBe(false);
    } finally {
      // Only a broken sandbox leaves these; remove them so one failure does not litter the host.
      await Promise.all(targets.map((target) => rm(target, { force: true })));
    }
  });

  it('sees none of the host beyond the read-only system folders', async () => {
    const { output } = await run(`ls / ; ls -d /root /home /work /var /opt ${process.cwd()} 2>/dev/null; echo end`);
    const visible = output.trim().split('\n');
    expect(visible.at(-1)).toBe('end');
    for (const hidden of ['root', 'home', 'work', 'var', 'opt', 'run', 'srv', 'mnt', '/root', '/home', '/work', process.cwd()]) {
      expect(visible).not.toContain(hidden);
    }
  });

  it('has a private /tmp: host files there are invisible and its files never reach the host', async () => {
    const name = `host-tmp-${randomUUID()}`;
    await writeFile(path.join(tmpdir(), name), 'host');
    try {
      const { output } = await run(`ls /tmp/${name} 2>/dev/null || echo not-visible; echo inner > /tmp/inner-${name} && echo written`);
      expect(output).toBe('not-visible\nwritten\n');
      expect(existsSync(path.join(tmpdir(), `inner-${name}`))).toBe(false);
    } finally {
      await rm(path.join(tmpdir(), name), { force: true });
    }
  });

  it('does not see a hidden path inside the workspace, and cannot write into it', async () => {
    const other = path.join(workspace, 'runs', 'other');
    await mkdir(other, { recursive: true });
    await writeFile(path.join(other, 'secret.txt'), 'other run');
    // The empty folder over it is read-only too (it used to be a writable tmpfs): nothing lands in it.
    const { output } = await run('cat runs/other/secret.txt 2>/dev/null || echo hidden; { echo mine > runs/other/new.txt; } 2>/dev/null || echo refused; ls runs/other', {
      hiddenPaths: [other],
      permission: PERSON_APPROVED,
    });
    expect(output).toBe('hidden\nrefused\n');
    expect(existsSync(path.join(other, 'new.txt'))).toBe(false);
    expect(await readFile(path.join(other, 'secret.txt'), 'utf8')).toBe('other run');
  });

  it('has its own PID namespace', async () => {
    const { output } = await run('echo "$$"; ls /proc | grep -c "^[0-9]"');
    const [shellPid, processCount] = output.trim().split('\n').map(Number);
    // bwrap's init is PID 1 and the shell PID 2; the host has well over a handful of processes.
    expect(shellPid).toBeLessThanOrEqual(3);
    expect(processCount).toBeLessThan(8);
  });

  describe('network', () => {
    let server: Awaited<ReturnType<typeof helloServer>>;
    beforeAll(async () => {
      server = await helloServer();
    });
    afterAll(() => server.server.close());
    const connect = (host: string, port: number | string) =>
      `bash -c 'exec 3<>/dev/tcp/${host}/${port} && head -n1 <&3' 2>&1 || echo unreachable`;

    it("cannot reach a server on the host's loopback without network", async () => {
      expect((await run(connect('127.0.0.1', server.port))).output).toMatch(/unreachable\n$/);
    });

    it('reaches it when the run allows the network and the call\'s permission grants it (a person, or a rule with "network": true)', async () => {
      expect((await run(connect('127.0.0.1', server.port), { network: true, permission: PERSON_APPROVED })).output).toBe('hello\n');
      expect((await run(connect('127.0.0.1', server.port), { network: true, permission: { by: 'rule', writes: false, network: true } })).output).toBe('hello\n');
    });

    it('cannot reach it when the run allows the network but a rule let the call run without granting it', async () => {
      expect((await run(connect('127.0.0.1', server.port), { network: true })).output).toMatch(/unreachable\n$/);
      expect((await run(connect('127.0.0.1', server.port), { network: true, permission: { by: 'rule', writes: true } })).output).toMatch(/unreachable\n$/);
    });

    it('cannot reach the Temporal frontend (the way a command could approve its own calls)', async () => {
      const [host, port] = inject('temporalAddress').split(':');
      expect((await run(connect(host === 'localhost' ? '127.0.0.1' : host!, port!))).output).toMatch(/unreachable\n$/);
    });
  });

  it('kills the command and everything it started when the timeout passes', async () => {
    const started = Date.now();
    // Two children, one in its own session (out of the command's process group): each holds a lock
    // for as long as it lives and says so once it has it.
    const hold = (n: number) => `flock child${n}.lock sh -c 'echo held > held${n}.txt; sleep 30'`;
    const result = await run(`${hold(1)} & setsid ${hold(2)} & sleep 30`, { timeoutMs: 1_500, permission: PERSON_APPROVED });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, signal: 'SIGKILL' });
    for (const n of [1, 2]) {
      expect(existsSync(path.join(workspace, `held${n}.txt`))).toBe(true);
      // Killed with the command: the lock comes free now, not when its sleep would end.
      await lockFreed(path.join(workspace, `child${n}.lock`));
    }
  });

  it('kills the command when the signal aborts', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const started = Date.now();
    const result = await run('sleep 30', { signal: abort.signal });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ aborted: true, timedOut: false, signal: 'SIGKILL' });
  });

  it('collects combined output only up to about twice the limit', async () => {
    const { output } = await run("echo err >&2; head -c 50000 /dev/zero | tr '\\0' a", { outputLimit: 1_000 });
    expect(output.startsWith('err\n')).toBe(true);
    expect(output.length).toBeLessThan(2_000 + 70_000);
    expect(output.length).toBeGreaterThanOrEqual(2_000);
  });
});
