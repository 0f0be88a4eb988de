import { formatBytes, type CommandLimits } from '../../../../contract/command-limits';
import type { CgroupHits } from './command-cgroup';

/**
 * The command joins its cgroups before anything of it runs: a host bash writes its own pid into each
 * cgroup.procs, then execs the launcher (bwrap, or the guard and shell in mode none) in the same
 * process. Everything the command starts is forked from there, so no part of it ever runs outside
 * its limits. Should a write fail, nothing runs: the status is 125 and the reason is printed.
 */
const ENTER = [
  'n=$1; shift',
  'while [ "$n" -gt 0 ]; do',
  '  echo "$$" > "$1" || { echo "durable-agent: could not move the command into its cgroup ($1); it did not run." >&2; exit 125; }',
  '  shift; n=$((n - 1))',
  'done',
  'exec "$@"',
].join('\n');

/** The argv that enters `procsFiles` and then runs `argv`. */
export function enterCgroupArgv(bash: string, procsFiles: readonly string[], argv: readonly string[]): string[] {
  return [bash, '--noprofile', '--norc', '-c', ENTER, 'agent-cgroup', String(procsFiles.length), ...procsFiles, ...argv];
}

/**
 * What the model is told about the limits the command's cgroup enforced, or undefined. An OOM kill
 * and a refused fork are reported whenever they happened. Being slowed to the CPU share is not a
 * failure, so it is reported only when the call failed or timed out, where it may be why.
 */
export function describeCgroupHits(hits: CgroupHits, limits: CommandLimits, failed: boolean): string | undefined {
  const notes: string[] = [];
  if (hits.oomKills > 0) {
    notes.push(
      `The command used its ${formatBytes(limits.totalMemoryBytes)} of memory (limits.totalMemoryBytes, all its processes and /tmp together), ` +
        `and the kernel killed ${hits.oomKills === 1 ? 'a process' : `${hits.oomKills} processes`} of it (out of memory).`,
    );
  }
  if (hits.forkRefusals > 0) {
    notes.push(
      `The command tried to run more than ${limits.totalProcesses} processes at once (limits.totalProcesses); ` +
        `${hits.forkRefusals === 1 ? 'a fork was' : `${hits.forkRefusals} forks were`} refused.`,
    );
  }
  if (failed && hits.throttledPeriods > 0) {
    notes.push(
      `The command was held to ${limits.cpuCores} CPU ${limits.cpuCores === 1 ? 'core' : 'cores'} (limits.cpuCores): ` +
        `held back in ${hits.throttledPeriods} of ${hits.periods} periods of 100 ms (${hits.throttledSeconds.toFixed(1)} s in all).`,
    );
  }
  return notes.length === 0 ? undefined : notes.join(' ');
}
