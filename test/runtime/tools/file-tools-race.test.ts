// Bypass 8 of issue 18: a process swaps a folder (and a file) for a symlink out of the workspace in a
// tight loop, while the file tools read and write through that path thousands of times. Before the
// tools opened paths through verified descriptors, 53 of 4,557 reads returned the outside file and a
// write overwrote it. A correctness stress test, not a timed one: it runs ~30 s and asserts that no
// call read outside content, and that nothing outside was created or changed.
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFilesTool } from '../../../src/runtime/tools/builtin/list-files';
import { readFileTool } from '../../../src/runtime/tools/builtin/read-file';
import { searchFilesTool } from '../../../src/runtime/tools/builtin/search-files';
import { writeFileTool } from '../../../src/runtime/tools/builtin/write-file';
import type { ToolResult } from '../../../src/contract/tool-result';
import { removeTempDirs, tempDir, toolContext } from './tool-test-context';

afterAll(removeTempDirs);

const SWAP_MS = 30_000;
const MIN_CALLS = 5_000;
const CONCURRENCY = 16;

// Runs in its own process, as a command beside a file tool would. Each rename is atomic, so at any
// moment `d` (and `e/file.txt`, `e/target.txt`) is either the real thing, missing, or a symlink out.
const SWAPPER = `
const fs = require('node:fs');
const [root, ms] = [process.argv[1], Number(process.argv[2])];
const at = (p) => root + '/' + p;
// A tool may create the name in the moment it is missing (write_file makes folders): clear it and retry.
const put = (from, to) => {
  for (;;) {
    try { fs.rmSync(at(to), { recursive: true, force: true }); } catch {}
    try { return fs.renameSync(at(from), at(to)); } catch (e) { if (!['EISDIR', 'ENOTEMPTY', 'EEXIST'].includes(e.code)) throw e; }
  }
};
const swap = (name) => { fs.renameSync(at(name), at(name + '.real')); put(name + '.link', name); };
const back = (name) => { fs.renameSync(at(name), at(name + '.link')); put(name + '.real', name); };
const names = ['d', 'e/file.txt', 'e/target.txt'];
const end = Date.now() + ms;
let swaps = 0;
while (Date.now() < end) {
  for (const name of names) swap(name);
  for (const name of names) back(name);
  swaps += 1;
}
process.stdout.write(String(swaps));
`;

describe('file tools beside a process that swaps folders for symlinks (bypass 8)', () => {
  it('never read outside content and never create or change an outside file', { timeout: 120_000 }, async () => {
    const root = await tempDir();
    const outside = await tempDir('outside-');
    await writeFile(path.join(outside, 'file.txt'), 'OUTSIDE SECRET\n');
    await writeFile(path.join(outside, 'target.txt'), 'ORIGINAL\n');
    await mkdir(path.join(root, 'd'));
    await mkdir(path.join(root, 'e'));
    for (const folder of ['d', 'e']) {
      await writeFile(path.join(root, folder, 'file.txt'), 'inside\n');
      await writeFile(path.join(root, folder, 'target.txt'), 'inside target\n');
    }
    await symlink(outside, path.join(root, 'd.link'));
    await symlink(path.join(outside, 'file.txt'), path.join(root, 'e', 'file.txt.link'));
    await symlink(path.join(outside, 'target.txt'), path.join(root, 'e', 'target.txt.link'));

    const swapper = spawn(process.execPath, ['-e', SWAPPER, root, String(SWAP_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let swapOutput = '';
    swapper.stdout.on('data', (chunk: Buffer) => (swapOutput += chunk.toString()));
    const swapperDone = new Promise<number | null>((resolve) => swapper.on('exit', resolve));

    const context = toolContext(root);
    const calls: ((i: number) => Promise<ToolResult>)[] = [
      () => readFileTool.execute({ path: 'd/file.txt' }, context),
      () => readFileTool.execute({ path: 'e/file.txt' }, context),
      () => writeFileTool.execute({ path: 'd/target.txt', content: 'written by a tool\n' }, context),
      () => writeFileTool.execute({ path: 'e/target.txt', content: 'written by a tool\n', append: true }, context),
      (i) => writeFileTool.execute({ path: `d/new-${i}.txt`, content: 'new\n' }, context),
      () => readFileTool.execute({ path: 'd/target.txt' }, context),
      () => searchFilesTool.execute({ query: 'SECRET', path: 'd' }, context),
      () => listFilesTool.execute({ path: 'd' }, context),
    ];
    const tally = { calls: 0, succeeded: 0, refused: 0, escaped: [] as string[] };
    const started = Date.now();
    const running = () => swapper.exitCode === null && (tally.calls < MIN_CALLS || Date.now() - started < SWAP_MS - 1_000);
    async function lane(): Promise<void> {
      while (running()) {
        const i = tally.calls++;
        const call = calls[i % calls.length] as (i: number) => Promise<ToolResult>;
        try {
          const result = await call(i);
          if (result.success) tally.succeeded += 1;
          else tally.refused += 1;
          if (/OUTSIDE SECRET|ORIGINAL/.test(result.output)) tally.escaped.push(result.output);
        } catch (error) {
          tally.refused += 1;
          if (/OUTSIDE SECRET|ORIGINAL/.test(String(error))) tally.escaped.push(String(error));
        }
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    const exitCode = await swapperDone;

    expect(exitCode).toBe(0);
    expect(Number(swapOutput)).toBeGreaterThan(1_000);
    expect(tally.calls).toBeGreaterThanOrEqual(MIN_CALLS);
    expect(tally.escaped).toEqual([]);
    // The calls that were not refused did their work inside: the test exercised the open paths, not only refusals.
    expect(tally.succeeded).toBeGreaterThan(tally.calls / 10);
    expect((await readdir(outside)).sort()).toEqual(['file.txt', 'target.txt']);
    expect(await readFile(path.join(outside, 'file.txt'), 'utf8')).toBe('OUTSIDE SECRET\n');
    expect(await readFile(path.join(outside, 'target.txt'), 'utf8')).toBe('ORIGINAL\n');
    console.info(`swap loop: ${swapOutput} swaps; ${tally.calls} calls, ${tally.succeeded} succeeded, ${tally.refused} refused, 0 escaped`);
  });
});
