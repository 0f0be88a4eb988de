// Child processes of the cluster: each logs to its own file, keeps its last lines for error
// messages, and is stopped politely first and by force after a grace period.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import readline from 'node:readline';
import { ClusterStartError } from './errors';

export interface ProcessOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as this user (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /** Every line of output goes here. */
  logFile: string;
  /** The signal that asks for a clean shutdown (PostgreSQL: SIGINT is its "fast" mode). */
  stopSignal?: NodeJS.Signals;
  /** A line of output that means the process is ready (see `ManagedProcess.ready`). */
  readyPattern?: RegExp;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves when the process has exited, however that happened. */
  readonly exited: Promise<void>;
  isRunning(): boolean;
  /** True once a line matched `readyPattern`. */
  readonly ready: boolean;
  /** The last lines of output, for error messages. */
  tail(): string;
  /** The stop signal, then SIGKILL to the whole process group after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const TAIL_LINES = 30;
/** Process groups still running, killed if this process exits without stopping them. */
const live = new Set<number>();
process.once('exit', () => {
  for (const pgid of live) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

export function startProcess(name: string, command: string, args: string[], options: ProcessOptions): ManagedProcess {
  // Detached: each child leads its own process group, so a Ctrl-C in the terminal reaches only the
  // cluster script, which then stops the parts in order (workers before the server before the
  // database) instead of all at once.
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    uid: options.uid,
    gid: options.gid,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const lines: string[] = [];
  let spawnError: Error | undefined;
  let ready = false;
  const onLine = (line: string) => {
    log.write(`${line}\n`);
    if (options.readyPattern?.test(line)) ready = true;
    lines.push(line);
    if (lines.length > TAIL_LINES) lines.shift();
  };
  // Both pipes are always drained, or a chatty process blocks once a pipe buffer fills.
  readline.createInterface({ input: child.stdout! }).on('line', onLine);
  readline.createInterface({ input: child.stderr! }).on('line', onLine);
  const exited = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      spawnError = error;
      resolve();
    });
    child.once('exit', () => resolve());
  }).then(() => {
    if (child.pid !== undefined) live.delete(child.pid);
    log.end();
  });
  if (child.pid !== undefined) live.add(child.pid);

  const isRunning = () => child.exitCode === null && child.signalCode === null && spawnError === undefined;
  return {
    name,
    get pid() {
      return child.pid ?? -1;
    },
    child,
    exited,
    isRunning,
    get ready() {
      return ready;
    },
    tail: () => (spawnError ? `cannot run ${command}: ${spawnError.message}` : lines.join('\n')),
    async stop(graceMs = 15_000) {
      if (!isRunning() || child.pid === undefined) return exited;
      child.kill(options.stopSignal ?? 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid!), graceMs);
      await exited;
      clearTimeout(timer);
      // Anything the process started and left behind goes with it.
      killGroup(child.pid);
    },
  };
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // The group is already empty.
  }
}

/**
 * Polls `check` until it returns true. Fails early, with the process's last output, when the
 * process it waits for exits, so a crash reads as a crash and not as a timeout.
 */
export async function waitUntilReady(processes: ManagedProcess[], what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const dead = processes.find((p) => !p.isRunning());
    if (dead) throw new ClusterStartError(`${dead.name} exited before ${what}. Its last output:\n${dead.tail()}`);
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  const output = processes.map((p) => `--- ${p.name} ---\n${p.tail()}`).join('\n');
  throw new ClusterStartError(`Timed out after ${timeoutMs / 1000}s waiting for ${what}${reason}.\n${output}`);
}
