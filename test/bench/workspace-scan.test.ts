// bench:scan at a tiny size: the scan alone in its own process, then a real worker (root, bubblewrap)
// whose shell calls the bench makes, with an unrelated run reading meanwhile. Not a timed test: no
// figure is compared with a target; it checks that every row is there and what each call answered.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.join(__dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** The data rows of every Markdown table, as cells. */
function rows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))
    .map((l) => l.slice(2, -2).split(' | '));
}

describe('bench:scan', () => {
  it('reports the scan alone and a worker that walks, with the answer of each shell call', async () => {
    const results = await mkdtemp(path.join(tmpdir(), 'bench-scan-results-'));
    dirs.push(results);
    const args = ['--import', 'tsx', 'bench/workspace-scan.ts', '--sizes', '200', '--e2e-size', '300'];
    await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { ...process.env, BENCH_RESULTS_DIR: results }, timeout: 400_000 });
    const report = await readFile(path.join(results, 'workspace-scan.md'), 'utf8');
    const [scanHeader, flatRow, treeRow, workerHeader, ...workerRows] = rows(report);

    expect(scanHeader![0]).toBe('workspace');
    // 200 folders in `many`, `many` itself and hello.txt; or 18 folders of 10 files.
    expect([flatRow![0], flatRow![1], flatRow![8]]).toEqual(['200 folders', 'none', 'walked 202 entries']);
    expect([treeRow![0], treeRow![1], treeRow![8]]).toEqual(['18 folders × 10 files', 'none', 'walked 200 entries']);
    for (const row of [flatRow!, treeRow!]) expect(Number(row[5])).toBeGreaterThan(0);
    expect(workerHeader![0]).toBe('shell call');
    expect(workerRows).toHaveLength(3);
    for (const row of workerRows) expect(Number(row[3])).toBeGreaterThan(0);
    expect(report).toContain(': exit code 0 300\n');
    expect(report.match(/: exit code 0 ?\n/g)).toHaveLength(2);
    expect(report).not.toContain('outcome unknown');
  }, 500_000);
});
