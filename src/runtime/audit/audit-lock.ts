// A cheap guard against two processes appending to one audit log, which would break its chain (both
// would write a line with the same seq and prev). It catches a mistake such as two workers configured
// with the same AGENT_AUDIT_LOG on one host; it is not a distributed lock: pids mean nothing across
// hosts or containers, and two processes taking over one stale lock at the same instant can both win.
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { AuditLogLockedError } from '../../contract/errors';

export const lockPathOf = (file: string) => `${file}.lock`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Locks this process holds: a lock with our pid that is not among them was left by an earlier process that had our pid (a container's pid 1 after a restart). */
const held = new Set<string>();

const create = (lock: string) => writeFile(lock, `${process.pid}\n`, { flag: 'wx' });

function lockedError(file: string, pid?: number): AuditLogLockedError {
  return new AuditLogLockedError(
    `${file} is in use by ${pid ? `process ${pid}` : 'another process'} (${lockPathOf(file)}); each worker process needs its own audit log. ` +
      'If no process of ours is using it, delete the lock file.',
  );
}

/**
 * Creates `<file>.lock` holding our pid, exclusively. A lock whose pid is not running is stale (its
 * process died without closing) and is taken over, as is one with our own pid that this process did
 * not take; a live one, or one this process holds, refuses. Returns the function that releases it.
 */
export async function acquireAuditLock(file: string): Promise<() => Promise<void>> {
  const lock = lockPathOf(file);
  try {
    await create(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
    const leftByEarlierProcess = holder === process.pid && !held.has(lock);
    if (Number.isInteger(holder) && holder > 0 && !leftByEarlierProcess && isAlive(holder)) throw lockedError(file, holder);
    await unlink(lock).catch(() => undefined);
    // Exclusive again: if another process took the stale lock first, it wins and we refuse.
    await create(lock).catch((again: NodeJS.ErrnoException) => {
      throw again.code === 'EEXIST' ? lockedError(file) : again;
    });
  }
  held.add(lock);
  return async () => {
    held.delete(lock);
    // Only our own lock is removed: a person may have deleted it and another process taken it since.
    const holder = await readFile(lock, 'utf8').catch(() => '');
    if (Number.parseInt(holder, 10) === process.pid) await unlink(lock).catch(() => undefined);
  };
}
