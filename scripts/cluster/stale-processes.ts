// A cluster killed without its Ctrl-C cleanup (SIGKILL, a closed terminal) leaves PostgreSQL, the
// server and the UI running on the addresses the next start needs. Their process ids are written
// down as they start, and the next start of a cluster with the same name ends them.
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { CLUSTER_DIR } from './go-binaries';

const stateFile = (name: string) => path.join(CLUSTER_DIR, 'state', `${name}.pids`);

/** Notes a process this cluster started, with its executable so a reused pid is not mistaken for it. */
export async function rememberProcess(name: string, pid: number): Promise<void> {
  await mkdir(path.dirname(stateFile(name)), { recursive: true });
  await appendFile(stateFile(name), `${pid} ${executableOf(pid) ?? ''}\n`);
}

function executableOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
  } catch {
    return undefined;
  }
}

/** Ends the processes an earlier run of this cluster left behind (only those still running the same executable). */
export async function endStaleProcesses(name: string, log: (line: string) => void): Promise<void> {
  const file = stateFile(name);
  if (!existsSync(file)) return;
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [pidText, executable] = line.split(' ');
    const pid = Number(pidText);
    if (!executable || executableOf(pid) !== executable) continue;
    log(`Ending ${executable} (pid ${pid}), left running by an earlier cluster "${name}"`);
    // Each was started as the leader of its own process group: end the group (PostgreSQL's backends too).
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  await rm(file, { force: true });
}

export async function forgetProcesses(name: string): Promise<void> {
  await rm(stateFile(name), { force: true });
}
