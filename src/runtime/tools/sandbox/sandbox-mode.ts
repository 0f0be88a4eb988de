import { spawnSync } from 'node:child_process';
import { SandboxUnavailableError } from '../../../contract/errors';
import { findExecutable } from './find-executable';

/**
 * How tool processes are isolated. `bwrap` runs each command in bubblewrap with fresh namespaces;
 * `none` runs it directly (with a clean environment) and carries the reason, so the worker can say
 * why it runs unsandboxed.
 */
export type SandboxMode = { mode: 'bwrap'; bwrapPath: string } | { mode: 'none'; reason: string };

const ALLOWED = ['bwrap', 'none'] as const;
const SMOKE_TEST_TIMEOUT_MS = 5_000;
const INSTALL_HINT = 'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)';

/**
 * Chooses the sandbox from `AGENT_SANDBOX` (bwrap | none). Unset, it uses bwrap when a `bwrap`
 * binary is on PATH and none otherwise. Whenever bwrap is chosen it must pass a smoke test first:
 * a host without user namespaces has a bwrap that fails on every call, and finding that out at the
 * first tool call (or worse, quietly running unsandboxed) is what this refuses to do. So a chosen
 * bwrap that does not work throws SandboxUnavailableError; it is never downgraded silently.
 */
export function resolveSandboxMode(env: NodeJS.ProcessEnv): SandboxMode {
  const requested = env.AGENT_SANDBOX?.trim() || undefined;
  if (requested !== undefined && !(ALLOWED as readonly string[]).includes(requested)) {
    throw new SandboxUnavailableError(
      `AGENT_SANDBOX="${requested}" is not a sandbox mode; use one of: ${ALLOWED.join(', ')} (or leave it unset).`,
    );
  }
  if (requested === 'none') {
    return { mode: 'none', reason: 'AGENT_SANDBOX=none was set' };
  }
  const bwrapPath = findExecutable('bwrap', env.PATH);
  if (!bwrapPath) {
    if (requested === 'bwrap') {
      throw new SandboxUnavailableError(`AGENT_SANDBOX=bwrap, but no bwrap binary is on PATH. ${INSTALL_HINT}.`);
    }
    return { mode: 'none', reason: `bwrap was not found on PATH. ${INSTALL_HINT} to sandbox tool commands.` };
  }
  smokeTest(bwrapPath, env);
  return { mode: 'bwrap', bwrapPath };
}

/** Runs `true` in the namespaces every real call will ask for; throws with bwrap's own complaint. */
function smokeTest(bwrapPath: string, env: NodeJS.ProcessEnv): void {
  const args = ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '--new-session', 'true'];
  const result = spawnSync(bwrapPath, args, {
    env: { PATH: env.PATH ?? '/usr/bin:/bin' },
    timeout: SMOKE_TEST_TIMEOUT_MS,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status === 0) return;
  const what = result.error
    ? result.error.message
    : result.signal
      ? `it was killed by ${result.signal} (timeout ${SMOKE_TEST_TIMEOUT_MS}ms)`
      : `it exited with ${result.status}: ${result.stderr.trim() || '(no stderr)'}`;
  throw new SandboxUnavailableError(
    `bwrap at ${bwrapPath} failed its smoke test (bwrap ${args.join(' ')}): ${what}. ` +
      `${INSTALL_HINT}; if it is installed, allow unprivileged user namespaces ` +
      '(e.g. sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap on Ubuntu 24.04+), ' +
      'or set AGENT_SANDBOX=none to run tool commands unsandboxed, knowingly.',
  );
}

/** What the worker prints at start when tool commands will not be sandboxed; undefined otherwise. */
export function sandboxWarning(mode: SandboxMode): string | undefined {
  if (mode.mode !== 'none') return undefined;
  return (
    `tool commands run UNSANDBOXED: ${mode.reason}. They get a clean environment and run in the ` +
    'workspace, but can read and write anything this user can and reach the network (the Temporal server included). ' +
    'Nothing can be made read-only, so only calls a person approved run; calls an allow rule or preference let through are refused.'
  );
}
