import { ShellMissingError } from './errors';
import { findExecutable } from './find-executable';

/**
 * The shell argv a tool's command runs with, under a watch that ends it if the worker dies.
 *
 * bwrap --die-with-parent and setpriv --pdeathsig ask the kernel to kill the launcher when the
 * worker dies, but only from the moment the launcher has made that request. bwrap's outer process
 * makes it after the sandboxed child has started. A worker killed inside that window leaves the
 * launcher orphaned, and the command would run to its end beside its retry. This was seen once in
 * a CI run of test/worker/crash-recovery.test.ts, and test/runtime/tools/sandbox/process-lifetime.test.ts
 * reproduces it every time.
 *
 * The watch closes the window. The worker holds the other end of the launcher's stdin and never
 * writes to it, so end of file on it means the worker is gone. bash runs the command in the
 * background, with /dev/null as its stdin as before, and waits for it. Beside it, a watcher reads
 * the channel. At end of file the watcher kills the process group: the command and, unless it is
 * PID 1 of the guard's namespace, bash. When bash ends, so does the sandbox's PID namespace with
 * everything in it. When the command ends first, bash stops the watcher and exits with the
 * command's status. `wait "$cmd"` returns that status even when the command finished before
 * bash got to wait. (`wait -n`, tried first, now and then gave a quick command a non-zero status
 * in the cluster test.)
 *
 * bash's own notices (a "Killed" line) go to /dev/null; the command keeps the real stderr.
 */
const WATCH = [
  'exec 3<&0 </dev/null 4>&2 2>/dev/null',
  // The limits go on a subshell, so the watch itself can still kill when the command used them up.
  '( eval "$2" && exec "$BASH" --noprofile --norc -c -- "$1" ) 2>&4 3<&- 4>&- &',
  'cmd=$!',
  '{ read -r -u 3 _; kill -KILL 0; } 4>&- &',
  'watch=$!',
  'exec 3<&- 4>&-',
  'wait "$cmd"',
  'status=$?',
  'kill "$watch"',
  'exit "$status"',
].join('\n');

/** The argv that runs `command` after `limits` (ulimitCommands' output), watched. */
export type ShellLauncher = (command: string, limits: string) => string[];

/**
 * bash as the sandbox shows it: looked up in the system folders only, which the sandbox binds from
 * the host, so PATH cannot pick it. Commands always run in bash, the shell whose grammar the
 * approval analyzer reads, with no start-up files; never in /bin/sh (dash on Debian reads `$'...'`
 * and `${x-'}` differently). Without bash, every command fails with ShellMissingError.
 */
export function shellLauncher(systemPath = '/usr/bin:/bin'): ShellLauncher {
  const bash = findExecutable('bash', systemPath);
  if (!bash) {
    return () => {
      throw new ShellMissingError(
        'Commands run in bash, and there is no bash in /usr/bin or /bin. Install bash (apt-get install bash); ' +
          'commands never fall back to /bin/sh, whose grammar the approval rules do not read.',
      );
    };
  }
  return (command, limits) => [bash, '--noprofile', '--norc', '-c', WATCH, 'agent-tool', command, limits];
}
