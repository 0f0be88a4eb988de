// bench:load --model-latency at a tiny size: its two configurations each get a row in both tables, the
// sticky cache figures come from the worker's own Prometheus metrics (hits above zero: a metric name
// the bench misreads would give 0 and "n/a"), every run ends in the drain, and the section it writes
// into load.md leaves the zero-latency figures already there alone. Not a timed test.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { histogramPercentileBound, parsePromText } from '../../bench/load/prom-text';

const ROOT = path.join(__dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** Data rows of every Markdown table in the text, as cells. */
function rows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| config') && !l.startsWith('| ---'))
    .map((l) => l.slice(2, -2).split(' | '));
}

describe('bench:load --model-latency', () => {
  it('reads counters with or without _total, sums label sets, and bounds a percentile by its bucket', () => {
    const text = [
      '# TYPE temporal_sticky_cache_hit counter',
      'temporal_sticky_cache_hit{task_queue="a"} 3',
      'temporal_sticky_cache_hit{task_queue="b"} 4',
      'temporal_sticky_cache_miss_total{task_queue="a"} 2',
      'temporal_x_bucket{le="100"} 90',
      'temporal_x_bucket{le="500"} 96',
      'temporal_x_bucket{le="+Inf"} 100',
      'temporal_x_count 100',
      'temporal_x_sum 12345',
    ].join('\n');
    const snapshot = parsePromText(text);
    expect(snapshot.value('temporal_sticky_cache_hit')).toBe(7);
    expect(snapshot.value('temporal_sticky_cache_miss')).toBe(2);
    const histogram = snapshot.histogram('temporal_x');
    expect(histogram.count).toBe(100);
    expect(histogramPercentileBound(histogram, 50)).toBe(100);
    expect(histogramPercentileBound(histogram, 95)).toBe(500);
    expect(histogramPercentileBound(histogram, 99)).toBe(Number.POSITIVE_INFINITY);
  });

  it('prints both configurations with cache hits from the worker metrics, ends every run, and keeps the earlier figures in load.md', async () => {
    const results = await mkdtemp(path.join(tmpdir(), 'bench-load-results-'));
    dirs.push(results);
    await writeFile(path.join(results, 'load.md'), '# load\n\nEarlier zero-latency figures.\n');
    const args = ['--import', 'tsx', 'bench/load.ts', '--model-latency', '300', '--runs', '4', '--configs', 'default,slots', '--rounds', '1', '--window', '4', '--warmup', '2'];
    await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { ...process.env, BENCH_RESULTS_DIR: results }, timeout: 240_000 });

    const sustained = await readFile(path.join(results, 'load-sustained.md'), 'utf8');
    const [first, second, cacheFirst, cacheSecond] = rows(sustained);
    expect([first![0], second![0], cacheFirst![0], cacheSecond![0]]).toEqual(['default', 'slots', 'default', 'slots']);
    for (const row of [first!, second!]) {
      expect(row[3]).toBe('4 / 4');
      expect(Number(row[4])).toBeGreaterThan(0);
    }
    for (const row of [cacheFirst!, cacheSecond!]) {
      expect(Number(row[2])).toBeGreaterThan(0);
      expect(row[4]).toMatch(/%$/);
      expect(row.at(-1)).toBe('4 / 4');
    }
    expect(sustained).toContain('activity 1000, local activity 1000');

    const load = await readFile(path.join(results, 'load.md'), 'utf8');
    expect(load).toContain('Earlier zero-latency figures.');
    expect(load).toContain('## 4 concurrent runs on one worker, 300 ms model latency');
  }, 300_000);
});
