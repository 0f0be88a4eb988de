import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { ProcessStartError } from '../../../contract/errors';

export interface ProcessLaunch {
  /** Program and arguments; the program is an absolute path, so the clean PATH cannot redirect it. */
  argv: readonly string[];
  /**
   * More arguments, written NUL-separated to the program's fd 3 instead of its argv (bwrap's
   * `--args 3`), so that they do not show in /proc/<pid>/cmdline, which the sandbox's own processes can read.
   */
  argsOnFd3?: readonly string[];
  cwd: string;
  /** The complete environment; nothing of the worker's is inherited. */
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Output is collected up to twice this many characters; the caller caps what it shows. */
  outputLimit: number;
}

export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  /** stdout and stderr interleaved as they arrived. */
  output: string;
  timedOut: boolean;
  aborted: boolean;
}

/** After the program exits, how long to wait for its output pipes to close before closing them. */
const PIPE_DRAIN_MS = 1_000;

/**
 * Spawns one process as the leader of its own process group and waits for it. On timeout or abort
 * the group is SIGKILLed; so it is when the program exits, so background jobs it left behind do not
 * linger (the sandbox's PID namespace would kill them at that point anyway, this makes the fallback
 * behave the same). Rejects with ProcessStartError only when the program cannot be started at all.
 */
export function runProcess(launch: ProcessLaunch): Promise<ProcessOutcome> {
  if (launch.signal.aborted) {
    return Promise.resolve({ exitCode: null, signal: null, output: '', timedOut: false, aborted: true });
  }
  return new Promise((resolve, reject) => {
    const [program, ...args] = launch.argv;
    const fd3 = launch.argsOnFd3;
    if (fd3?.some((arg) => arg.includes('\0'))) return reject(new ProcessStartError(`Could not start ${program}: an argument holds a NUL byte.`));
    const child = spawn(program!, args, {
      cwd: launch.cwd,
      env: launch.env,
      detached: true,
      // stdin is the liveness channel of liveness-gate.ts: held open, never written, closed at the end.
      stdio: fd3 ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.on('error', () => undefined);
    const argsPipe = child.stdio[3] as Writable | null | undefined;
    if (fd3 && argsPipe) {
      // A program that exits before it read them closes the pipe; its exit status says what happened.
      argsPipe.on('error', () => undefined);
      argsPipe.end(fd3.map((arg) => `${arg}\0`).join(''));
    }
    let output = '';
    const collect = (chunk: string) => {
      if (output.length < launch.outputLimit * 2) output += chunk;
    };
    child.stdout.setEncoding('utf8').on('data', collect);
    child.stderr.setEncoding('utf8').on('data', collect);

    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, launch.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    launch.signal.addEventListener('abort', onAbort, { once: true });
    let drainTimer: NodeJS.Timeout | undefined;
    const cleanUp = () => {
      clearTimeout(timer);
      clearTimeout(drainTimer);
      launch.signal.removeEventListener('abort', onAbort);
    };

    child.on('error', (error) => {
      cleanUp();
      killGroup();
      reject(new ProcessStartError(`Could not start ${program}: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      killGroup();
      // A process that left the group (setsid) may still hold the pipes open; do not wait for it.
      child.stdin.destroy();
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, PIPE_DRAIN_MS);
    });
    child.on('close', (code, signal) => {
      cleanUp();
      const final = exit ?? { code, signal };
      resolve({ exitCode: final.code, signal: final.signal, output, timedOut, aborted });
    });
  });
}
