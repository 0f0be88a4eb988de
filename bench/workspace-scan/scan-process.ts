// One workspace scan, alone in its own process, so its peak RSS (VmHWM) is the scan's and nothing
// else's. While it walks, two probes run on the same event loop: a 20 ms timer (how late it fires is
// how long the loop was held) and an fs.stat every 20 ms (how long a file operation of someone else
// waits behind the scan's: what an unrelated run's read_file feels).
//   argv: <workspace> <maxEntries|Infinity>
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { scanWorkspace } from '../../src/runtime/tools/sandbox/workspace-scan';

export interface ScanSample {
  ms: number;
  /** CPU time of the whole process (its main thread and libuv's file threads), user and system. */
  cpuMs: number;
  baselineRss: number;
  peakRss: number;
  outcome: string;
  loopDelayMaxMs: number;
  statP50Ms: number;
  statMaxMs: number;
  statCount: number;
}

/** The process's peak resident set (VmHWM), in bytes. */
export function peakRss(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

async function run(): Promise<void> {
  const [workspace, cap] = process.argv.slice(2) as [string, string];
  const maxEntries = cap === 'Infinity' ? Number.POSITIVE_INFINITY : Number(cap);
  const baselineRss = peakRss();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const statTimes: number[] = [];
  let walking = true;
  const probe = (async () => {
    while (walking) {
      const started = performance.now();
      await stat(workspace);
      statTimes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  delay.enable();
  const started = performance.now();
  const cpu = process.cpuUsage();
  let outcome: string;
  try {
    // The options this release knows; the scan of an earlier release ignores maxEntries.
    const scan = (await scanWorkspace(workspace, { hidden: [], owner: { uid: 65534, gid: 65534 }, maxEntries } as Parameters<typeof scanWorkspace>[1])) as { entries?: number };
    outcome = `walked ${scan.entries ?? 'all'} entries`;
  } catch (error) {
    outcome = `refused: ${(error as Error).message.split('.')[0]}`;
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  walking = false;
  delay.disable();
  await probe;
  const sorted = [...statTimes].sort((a, b) => a - b);
  const sample: ScanSample = {
    ms,
    cpuMs: (used.user + used.system) / 1000,
    baselineRss,
    peakRss: peakRss(),
    outcome,
    loopDelayMaxMs: delay.max / 1e6,
    statP50Ms: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    statMaxMs: sorted.at(-1) ?? Number.NaN,
    statCount: sorted.length,
  };
  process.send!(sample);
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
