import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import type { CommandLimits } from '../../../../contract/command-limits';
import { CommandCgroupError } from '../errors';

/** The controllers a command's cgroup may use: memory.max, pids.max and cpu.max (or their v1 names). */
export type CgroupController = 'memory' | 'pids' | 'cpu';
export const CGROUP_CONTROLLERS: readonly CgroupController[] = ['memory', 'pids', 'cpu'];

/** What a command ran into, read from its cgroup's counters before the cgroup is removed. */
export interface CgroupHits {
  /** Processes the kernel killed because the command used its memory (memory.events / memory.oom_control oom_kill). */
  oomKills: number;
  /** Forks refused at the process limit (pids.events max). */
  forkRefusals: number;
  /** Scheduler periods (100 ms) the command ran in, those in which it was held back at its CPU share, and for how long in total. */
  periods: number;
  throttledPeriods: number;
  throttledSeconds: number;
}

/** One command's cgroup: created before the command starts, removed after it ended. */
export interface CommandCgroup {
  /** The `cgroup.procs` files the launcher writes its own pid into before it runs anything. */
  readonly procsFiles: readonly string[];
  hits(): Promise<CgroupHits>;
  /** Kills whatever is still inside and removes the cgroup; CommandCgroupError if it cannot. */
  remove(): Promise<void>;
}

/** Where this worker can create command cgroups, and with which controllers. */
export interface CgroupHost {
  readonly version: 1 | 2;
  readonly controllers: readonly CgroupController[];
  create(limits: CommandLimits): Promise<CommandCgroup>;
}

/**
 * The file operations on a cgroup tree. The kernel's cgroupfs in production; tests of the v2 layout,
 * which this machine's kernel cannot show (its controllers are bound to v1), pass one that works on
 * a plain temporary folder, where removing a folder must also remove the files inside it.
 */
export interface CgroupFs {
  mkdir(dir: string): Promise<void>;
  write(file: string, value: string): Promise<void>;
  read(file: string): Promise<string>;
  rmdir(dir: string): Promise<void>;
}

export const kernelCgroupFs: CgroupFs = {
  mkdir: async (dir) => {
    await mkdir(dir);
  },
  write: (file, value) => writeFile(file, value),
  read: (file) => readFile(file, 'utf8'),
  rmdir: (dir) => rmdir(dir),
};

/** The number after `key` in a flat-keyed cgroup file ("oom_kill 3"); 0 when the file or key is missing. */
export async function readCounter(fs: CgroupFs, file: string, key: string): Promise<number> {
  let text: string;
  try {
    text = await fs.read(file);
  } catch {
    return 0;
  }
  const match = new RegExp(`^${key} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** The CPU quota per 100 ms period, in microseconds, for `cores` cores (the kernel's minimum is 1 ms). */
export function cpuQuotaMicros(cores: number): number {
  return Math.max(1_000, Math.round(cores * CPU_PERIOD_MICROS));
}
export const CPU_PERIOD_MICROS = 100_000;

/** How long removal keeps killing and retrying before it gives up on a cgroup that will not empty. */
const REMOVE_ATTEMPTS = 100;
const REMOVE_PAUSE_MS = 20;

/**
 * Kills every process left in `dir` and removes it. The command's process group and the sandbox's
 * PID namespace normally took everything with them already; this also catches what left the group
 * (setsid) in mode none. A killed process leaves its cgroup only when it has exited, so rmdir is
 * retried (EBUSY) for up to two seconds. `killFile` is v2's cgroup.kill, which kills atomically.
 */
export async function emptyAndRemove(fs: CgroupFs, dir: string, killFile?: string): Promise<void> {
  if (killFile) await fs.write(`${dir}/${killFile}`, '1').catch(() => undefined);
  for (let attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
    // Unreadable (the cgroup is already gone): rmdir below says so.
    const procs = await fs.read(`${dir}/cgroup.procs`).catch(() => '');
    for (const pid of procs.split('\n').filter((line) => /^\d+$/.test(line))) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // It exited meanwhile.
      }
    }
    try {
      await fs.rmdir(dir);
      return;
    } catch (error) {
      if (code(error) === 'ENOENT') return;
      if (code(error) !== 'EBUSY') throw new CommandCgroupError(`Could not remove the command's cgroup ${dir}: ${String(error)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, REMOVE_PAUSE_MS));
  }
  throw new CommandCgroupError(`The command's cgroup ${dir} still holds processes after they were killed; it was left in place.`);
}

export function code(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
