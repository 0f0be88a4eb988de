import { spawnSync } from 'node:child_process';
import { findExecutable } from './find-executable';
import { DEFAULT_TOOL_PATH } from './tool-environment';

/**
 * Without bwrap, what keeps a tool's processes from outliving the worker.
 *
 * `pid-namespace` prefixes the command with `setpriv --pdeathsig KILL unshare --pid --fork
 * --kill-child --mount-proc`: setpriv asks the kernel to SIGKILL it (by then exec'd into unshare)
 * when the worker dies; unshare's --kill-child does the same for its forked child, which is PID 1 of
 * a new PID namespace; and when PID 1 of a namespace dies the kernel kills every process in it, even
 * ones that detached with setsid or double-forked. Killing the unshare process on timeout or abort
 * ends the whole tree the same way. Verified by experiment: SIGKILL the worker and `sleep` children
 * are gone; without the prefix they are reparented and keep running.
 *
 * `process-group` is the fallback (not Linux, or no namespaces allowed): the command leads its own
 * process group, killed on timeout, abort and exit. It cannot catch a process that left the group
 * (setsid). If the worker itself is SIGKILLed, only the watch of liveness-gate.ts kills the group.
 */
export type ChildGuard = { kind: 'pid-namespace'; prefix: string[] } | { kind: 'process-group'; reason: string };

const SMOKE_TEST_TIMEOUT_MS = 5_000;

/** Picks the strongest guard that works on this host, trying each candidate with `true`. */
export function detectChildGuard(sourceEnv: NodeJS.ProcessEnv): ChildGuard {
  if (process.platform !== 'linux') {
    return { kind: 'process-group', reason: `PID namespaces need Linux (this is ${process.platform})` };
  }
  const searchPath = sourceEnv.PATH || DEFAULT_TOOL_PATH;
  const setpriv = findExecutable('setpriv', searchPath);
  const unshare = findExecutable('unshare', searchPath);
  if (!setpriv || !unshare) {
    return { kind: 'process-group', reason: 'setpriv or unshare (util-linux) was not found on PATH' };
  }
  const namespaceFlags = ['--pid', '--fork', '--kill-child', '--mount-proc'];
  const candidates = [
    // Root can create a PID namespace directly; anyone else needs a user namespace around it, which
    // maps the worker's own uid so files the command writes still belong to the worker's user.
    ...(process.getuid?.() === 0 ? [[unshare, ...namespaceFlags]] : []),
    [unshare, '--user', '--map-current-user', ...namespaceFlags],
  ];
  const failures: string[] = [];
  for (const candidate of candidates) {
    const prefix = [setpriv, '--pdeathsig', 'KILL', ...candidate];
    const result = spawnSync(prefix[0]!, [...prefix.slice(1), 'true'], {
      env: { PATH: searchPath },
      timeout: SMOKE_TEST_TIMEOUT_MS,
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    if (result.status === 0) return { kind: 'pid-namespace', prefix };
    failures.push(`${candidate.join(' ')}: ${result.error?.message ?? (result.stderr.trim() || `exit ${result.status}`)}`);
  }
  return { kind: 'process-group', reason: `no PID namespace could be created (${failures.join('; ')})` };
}
