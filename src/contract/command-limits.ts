import { z } from 'zod';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * What one command may use. The first five are rlimits set (soft and hard, so the command cannot
 * raise them) by the shell that starts the command, inside the sandbox; `tmpBytes` caps the
 * sandbox's private /tmp. The `total*` fields and `cpuCores` bound the whole command (all its
 * processes together) through a cgroup of its own, where the worker may create one (see
 * src/runtime/tools/sandbox/cgroups); elsewhere only the rlimits hold. CPU time, address space and file size count per process, processes per
 * user (hence commands run as their own unprivileged user when the worker is root). Wall time is the
 * tool's own timeout. The defaults let compilers, test runners and `npm install` work, and stop a
 * runaway before it hurts the worker; an agent sets its own with `limits` in its definition.
 */
export const CommandLimitsSchema = z
  .object({
    /** CPU seconds per process (RLIMIT_CPU); the kernel sends SIGXCPU, then SIGKILL. */
    cpuSeconds: z.number().int().positive().default(300),
    /** Address space per process in bytes (RLIMIT_AS); an allocation beyond it fails. */
    memoryBytes: z.number().int().min(64 * MiB).default(2 * GiB),
    /** Largest file a process may write, in bytes (RLIMIT_FSIZE); beyond it, SIGXFSZ. */
    fileSizeBytes: z.number().int().min(1024).default(512 * MiB),
    /** Open file descriptors per process (RLIMIT_NOFILE). */
    openFiles: z.number().int().min(16).default(1024),
    /** Processes and threads of the command's user (RLIMIT_NPROC); a fork bomb stops here. */
    processes: z.number().int().min(8).default(256),
    /** Size of the sandbox's private /tmp (a tmpfs, so it is memory). */
    tmpBytes: z.number().int().min(MiB).default(256 * MiB),
    /** Memory of all the command's processes together, /tmp included (cgroup memory.max); beyond it the kernel kills one. */
    totalMemoryBytes: z.number().int().min(32 * MiB).default(4 * GiB),
    /** Processes and threads of the command at once (cgroup pids.max); a fork beyond it fails. */
    totalProcesses: z.number().int().min(8).default(256),
    /** CPU cores' worth of time the command may use (cgroup cpu.max); beyond it, it is slowed down, not stopped. */
    cpuCores: z.number().min(0.05).max(1024).default(2),
  })
  .strict();
export type CommandLimits = z.output<typeof CommandLimitsSchema>;
export type CommandLimitsInput = z.input<typeof CommandLimitsSchema>;

export const DEFAULT_COMMAND_LIMITS: CommandLimits = CommandLimitsSchema.parse({});

/**
 * The `ulimit` commands run before the command (only numbers go in, so the shell may eval them).
 * bash's units: -t seconds, -v KiB, -f 1024-byte blocks (outside posix mode), -n and -u counts.
 * Without -S or -H, ulimit sets both limits, so the command cannot raise them. CPU time is the
 * exception: at the hard limit the kernel sends SIGKILL straight away, so the hard limit is one
 * second above the soft one, where SIGXCPU comes first and says what happened.
 */
export function ulimitCommands(limits: CommandLimits): string {
  const all = [
    `ulimit -t ${limits.cpuSeconds + 1}`,
    `-v ${Math.floor(limits.memoryBytes / 1024)}`,
    `-f ${Math.floor(limits.fileSizeBytes / 1024)}`,
    `-n ${limits.openFiles}`,
    `-u ${limits.processes}`,
  ].join(' ');
  return `${all} && ulimit -S -t ${limits.cpuSeconds}`;
}

/** bash reports a command killed by signal N as status 128 + N. */
const SIGXCPU_STATUS = 128 + 24;
const SIGXFSZ_STATUS = 128 + 25;

/**
 * What the model is told when a command ran into a limit, or undefined. CPU time and file size are
 * certain (their signals, in the status or in bash's report); the others show only as a failed call, so their usual messages are read
 * from the output and the note says "probably".
 */
export function describeLimitHit(
  outcome: { exitCode: number | null; output: string },
  limits: CommandLimits,
  /** Limits the command's cgroup reported as hit, so that the guess from the output is not repeated. */
  known: { processes?: boolean } = {},
): string | undefined {
  // bash names the signal when a command it waited for died of it; the status says so when it was the last one.
  if (outcome.exitCode === SIGXCPU_STATUS || /CPU time limit exceeded/.test(outcome.output)) {
    return `The command used its ${limits.cpuSeconds} s of CPU time and was stopped (limits.cpuSeconds).`;
  }
  if (outcome.exitCode === SIGXFSZ_STATUS || /File size limit exceeded/.test(outcome.output)) {
    return `The command tried to write a file larger than ${formatBytes(limits.fileSizeBytes)} and was stopped (limits.fileSizeBytes).`;
  }
  const notes: string[] = [];
  const output = outcome.output;
  if (/Cannot allocate memory|MemoryError|out of memory|bad_alloc|memory exhausted|xmalloc|allocation fail/i.test(output)) {
    notes.push(`an allocation beyond its ${formatBytes(limits.memoryBytes)} of address space (limits.memoryBytes)`);
  }
  if (!known.processes && /fork: (retry: )?Resource temporarily unavailable|Resource temporarily unavailable|fork failed|can't fork/i.test(output)) {
    notes.push(`more than ${limits.processes} processes (limits.processes)`);
  }
  if (/Too many open files/i.test(output)) notes.push(`more than ${limits.openFiles} open files (limits.openFiles)`);
  if (/No space left on device/i.test(output)) notes.push(`a full /tmp, which holds ${formatBytes(limits.tmpBytes)} (limits.tmpBytes)`);
  return notes.length === 0 ? undefined : `The command probably ran into a limit: ${notes.join('; ')}.`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= GiB && bytes % GiB === 0) return `${bytes / GiB} GiB`;
  if (bytes >= MiB) return `${Math.round(bytes / MiB)} MiB`;
  return `${bytes} bytes`;
}
