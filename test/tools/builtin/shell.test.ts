import { access, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { shellTool } from '../../../src/tools/builtin/shell';
import { removeTempDirs, tempDir, toolContext } from '../tool-test-context';

describe('shell', () => {
  let root: string;
  const run = (input: Parameters<typeof shellTool.execute>[0], signal?: AbortSignal) => shellTool.execute(input, toolContext(root, signal));

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
    const result = await run({ command: '(sleep 1.5; echo late > late.txt) & sleep 30; echo never', timeoutSeconds: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^Command timed out after 1s and was killed/);
    expect(result.output).not.toContain('never');
    // The background child was in the killed process group: it never gets to write.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await expect(access(path.join(root, 'late.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('caps the output and says how to see the rest', async () => {
    const result = await run({ command: "head -c 50000 /dev/zero | tr '\\0' a" });
    expect(result.success).toBe(true);
    expect(result.output.length).toBeLessThan(12_300);
    expect(result.output).toMatch(/output truncated: showing 12000 of \d+ characters; redirect output to a file and search it/);
  });

  it('stops the command when the activity is cancelled', async () => {
    const abort = new AbortController();
    const started = Date.now();
    const pending = run({ command: 'sleep 30' }, abort.signal);
    setTimeout(() => abort.abort(), 200);
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ success: false, output: expect.stringMatching(/^exit code SIGKILL/) });
  });

  it('refuses a timeout beyond the maximum through its schema', () => {
    expect(shellTool.inputSchema.safeParse({ command: 'ls', timeoutSeconds: 601 }).success).toBe(false);
  });
});
