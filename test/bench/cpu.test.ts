// bench:cpu at a tiny size: it runs its three scenarios and the three floor scenarios (a bare Temporal
// workflow) on its own dev server and worker process, and its table has a row for each with the iterations of the steady window and CPU figures above
// zero. Not a timed test: no figure is compared with a target.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.join(__dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** The data rows of the Markdown table, as cells. */
function rows(markdown: string): string[][] {
  const lines = markdown.split('\n').filter((l) => l.startsWith('| '));
  return lines.slice(2).map((l) => l.slice(2, -2).split(' | '));
}

describe('bench:cpu', () => {
  it('prints a row per scenario with the steady-window iterations and worker, thread and server CPU above zero', async () => {
    const results = await mkdtemp(path.join(tmpdir(), 'bench-cpu-results-'));
    dirs.push(results);
    // Ten iterations, so each column spans a few 10 ms clock ticks even on an idle machine.
    const args = ['--import', 'tsx', 'bench/cpu.ts', '--iterations', '10', '--runs', '3', '--run-iterations', '3', '--warmup', '2'];
    await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { ...process.env, BENCH_RESULTS_DIR: results }, timeout: 240_000 });
    const table = rows(await readFile(path.join(results, 'cpu.md'), 'utf8'));

    expect(table.map((r) => r[0])).toEqual([
      '10 iterations, small read tool (list_files)',
      '10 iterations, 5000-byte tool outputs',
      '3 runs × 3 iterations side by side, small read tool',
      'floor: bare Temporal workflow, 10 iterations, model activity streams from the fake API as ours does, local activity for the tool',
      "floor: bare Temporal workflow, 10 iterations, model activity makes the SDK's plain (non-streaming) call, local activity for the tool",
      'floor: bare Temporal workflow, 10 iterations, model activity makes no request (Temporal alone), local activity for the tool',
    ]);
    // 11 and 12 model requests (10 tool calls and the completing turn; 3 runs of 4), less 2 of warm-up. The floor
    // without a model request counts its model activity's calls instead: the same 11.
    expect(table.map((r) => Number(r[1]))).toEqual([9, 9, 10, 9, 9, 9]);
    for (const [, , worker, main, workflow, other, server, wall] of table) {
      const [workflowMs, threads] = /^([\d.]+) \((\d+) threads?\)$/.exec(workflow!)!.slice(1).map(Number);
      for (const value of [worker, main, workflowMs, server, wall]) expect(Number(value)).toBeGreaterThan(0);
      expect(threads).toBeGreaterThanOrEqual(1);
      // The rest of the worker (Rust core, V8 helpers) is what the process used beyond the threads named:
      // below zero, a thread would be counted twice (the main thread among the workflow threads, say).
      expect(Number(other)).toBeGreaterThanOrEqual(0);
      expect(Number(main) + workflowMs!).toBeLessThanOrEqual(Number(worker) + 0.1);
    }
    // What the server stored and bills: every iteration has at least its model activity's three events and one action.
    for (const row of table) {
      expect(Number(row[9])).toBeGreaterThanOrEqual(3);
      expect(Number(row[10])).toBeGreaterThanOrEqual(1);
    }
  }, 300_000);
});
