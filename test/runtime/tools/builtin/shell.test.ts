import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { shellTool } from '../../../../src/runtime/tools/builtin/shell';
import type { ToolContext } from '../../../../src/runtime/tools/tool-definition';
import { eventually, helloServer, lockFreed, runnerFor, workerSecrets } from '../sandbox/sandbox-test-support';
import { removeTempDirs, tempDir, toolContext } from '../tool-test-context';

type Input = Parameters<typeof shellTool.execute>[0];

describe.each(['bwrap', 'none'] as const)('shell (sandbox %s)', (mode) => {
  let root: string;
  const processes = runnerFor(mode);
  // A person approved these calls: they may write, and mode none runs nothing else.
  const run = (input: Input, signal?: AbortSignal) => shellTool.execute(input, toolContext(root, signal, { processes, permission: { by: 'person', writes: true } }));

  beforeEach(async () => {
    root = await tempDir();
  });
  afterAll(removeTempDirs);

  it('runs the command in the workspace root and reports exit code 0 with the output', async () => {
    const result = await run({ command: 'pwd && echo hi > made.txt && echo oops >&2' });
    expect(result).toEqual({ success: true, shouldContinue: true, output: `exit code 0\n${root}\noops\n` });
    expect(await readFile(path.join(root, 'made.txt'), 'utf8')).toBe('hi\n');
  });

  it('reports a non-zero exit code as an error result with the output', async () => {
    const result = await run({ command: 'echo failing; exit 3' });
    expect(result).toEqual({ success: false, shouldContinue: true, output: 'exit code 3\nfailing\n' });
  });

  it('kills a command that runs past its timeout, children included', async () => {
    const started = Date.now();
    // The background child holds a lock on child.lock for as long as it lives (the kernel drops an
    // flock when its holder dies), and says so in held.txt once it has it.
    const command = "flock child.lock sh -c 'echo held > held.txt; sleep 30' & sleep 30; echo never";
    const result = await run({ command, timeoutSeconds: 2 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^Command timed out after 2s and was killed/);
    expect(result.output).not.toContain('never');
    expect(await readFile(path.join(root, 'held.txt'), 'utf8')).toBe('held\n');
    // The child was killed with the command: its lock comes free now, not when its sleep would end.
    await lockFreed(path.join(root, 'child.lock'));
  });

  it('caps the output and says how to see the rest', async () => {
    const result = await run({ command: "head -c 50000 /dev/zero | tr '\\0' a" });
    expect(result.success).toBe(true);
    expect(result.output.length).toBeLessThan(12_300);
    expect(result.output).toMatch(/output truncated: showing 12000 of \d+ characters; redirect output to a file and search it/);
  });

  it('stops the command when the activity is cancelled, and says so', async () => {
    const abort = new AbortController();
    // Cancelled once the command has surely started (it says so in started.txt), however slowly the
    // machine spawns it: a fixed delay once landed before the spawn on a loaded machine.
    const pending = run({ command: 'echo up > started.txt; sleep 30' }, abort.signal);
    expect(await eventually(() => existsSync(path.join(root, 'started.txt')), 20_000)).toBe(true);
    const started = Date.now();
    abort.abort();
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ success: false, output: expect.stringMatching(/^exit code SIGKILL\nThe call was cancelled; its command was killed\./) });
  });

  it('says a call cancelled before its command started ran nothing', async () => {
    const abort = new AbortController();
    abort.abort();
    const result = await run({ command: 'echo ran > ran.txt' }, abort.signal);
    expect(result).toEqual({ success: false, shouldContinue: true, output: 'The call was cancelled before its command started; nothing ran.' });
    expect(existsSync(path.join(root, 'ran.txt'))).toBe(false);
  });

  it("does not show the worker's secrets to the command", async () => {
    const { output } = await run({ command: 'env' });
    for (const [name, value] of Object.entries(workerSecrets)) expect(output).not.toContain(`${name}=${value}`);
  });
});

describe('shell under bwrap', () => {
  let root: string;
  const processes = runnerFor('bwrap');
  const run = (input: Input, context: Partial<ToolContext> = {}) =>
    shellTool.execute(input, toolContext(root, undefined, { processes, ...context }));

  beforeEach(async () => {
    root = await tempDir();
  });
  afterAll(removeTempDirs);

  it('uses the network only when the context allows it and the call\'s permission grants it', async () => {
    const { server, port } = await helloServer();
    try {
      const command = `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && head -n1 <&3'`;
      expect((await run({ command })).success).toBe(false);
      expect((await run({ command }, { network: true })).success).toBe(false);
      expect(await run({ command }, { network: true, permission: { by: 'rule', writes: false, network: true } })).toMatchObject({ success: true, output: 'exit code 0\nhello\n' });
      expect(await run({ command }, { network: true, permission: { by: 'person', writes: true } })).toMatchObject({ success: true, output: 'exit code 0\nhello\n' });
    } finally {
      server.close();
    }
  });

  it("hides the context's hidden paths from the command", async () => {
    const result = await run({ command: 'mkdir -p other && ls -A other' }, { hiddenPaths: [path.join(root, 'other')] });
    expect(result).toMatchObject({ success: true, output: 'exit code 0\n' });
  });

  it('cannot write outside the workspace', async () => {
    const result = await run({ command: 'touch /etc/shell-tool-probe' });
    expect(result).toMatchObject({ success: false, output: expect.stringContaining('Read-only file system') });
  });

  it('tells the model that commands run sandboxed and offline unless allowed', () => {
    expect(shellTool.description).toMatch(/sandboxed/);
    expect(shellTool.description).toMatch(/no network access unless it was allowed/);
  });
});

describe('shell enforces the call\'s permission', () => {
  let root: string;
  beforeEach(async () => {
    root = await tempDir();
  });
  afterAll(removeTempDirs);
  const run = (command: string, context: Partial<ToolContext>, mode: 'bwrap' | 'none' = 'bwrap') =>
    shellTool.execute({ command }, toolContext(root, undefined, { processes: runnerFor(mode), ...context }));

  it('runs a call with no permission (a rule allowed it) on a read-only workspace', async () => {
    const result = await run('echo x > f.txt', {});
    expect(result).toMatchObject({ success: false, output: expect.stringContaining('Read-only file system') });
    expect(existsSync(path.join(root, 'f.txt'))).toBe(false);
  });

  it('tells the model which protected paths a rule-allowed call created and were removed', async () => {
    const result = await run('echo ok > f.txt && echo NODE_OPTIONS=x > .env.local', { permission: { by: 'rule', writes: true } });
    expect(result.success).toBe(false);
    expect(result.output).toContain("they were removed: .env.local");
    expect(existsSync(path.join(root, '.env.local'))).toBe(false);
    expect(await readFile(path.join(root, 'f.txt'), 'utf8')).toBe('ok\n');
  });

  it('refuses a rule-allowed call without a sandbox, saying why, and runs nothing', async () => {
    const result = await run('touch made', { permission: { by: 'rule', writes: true } }, 'none');
    expect(result).toMatchObject({ success: false, output: expect.stringContaining('runs only commands a person approved') });
    expect(existsSync(path.join(root, 'made'))).toBe(false);
  });
});

describe('shell schema', () => {
  it('refuses a timeout beyond the maximum', () => {
    expect(shellTool.inputSchema.safeParse({ command: 'ls', timeoutSeconds: 601 }).success).toBe(false);
  });
});

