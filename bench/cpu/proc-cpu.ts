// CPU time of processes and threads, read from /proc (Linux only): utime + stime of
// /proc/<pid>/stat (the whole process, threads that already exited included) or of
// /proc/<pid>/task/<tid>/stat (one thread), in milliseconds.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** /proc is missing (not Linux), or a process it should list has gone. */
export class ProcCpuError extends Error {
  override name = 'ProcCpuError';
}

let ticksPerSecond: number | undefined;
function msPerTick(): number {
  // Kernel clock ticks are 100 a second nearly everywhere, but getconf is the authority.
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return 1000 / ticksPerSecond;
}

/** utime + stime of one stat file, in ms; 0 when it vanished (a thread that exited). */
function statCpuMs(file: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ")".
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5); the slice starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) * msPerTick();
}

export function assertProc(pid: number): void {
  if (!existsSync(`/proc/${pid}/stat`)) throw new ProcCpuError(`/proc/${pid}/stat is missing: bench:cpu reads CPU time from /proc, so it needs Linux and a live process ${pid}`);
}

/** A process's CPU ms (all its threads, past and present). */
export const processCpuMs = (pid: number) => statCpuMs(`/proc/${pid}/stat`);

/** One thread's CPU ms. */
export const threadCpuMs = (pid: number, tid: number | string) => statCpuMs(`/proc/${pid}/task/${tid}/stat`);

/** A process and all its descendants (the Temporal CLI may run the server in a child process). */
export function treeCpuMs(pid: number): number {
  let total = processCpuMs(pid);
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return total;
  }
  for (const tid of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean)) total += treeCpuMs(Number(child));
  }
  return total;
}
