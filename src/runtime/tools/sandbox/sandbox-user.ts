import { readFileSync } from 'node:fs';
import { SandboxUserError } from './errors';
import { findExecutable } from './find-executable';

/** The unprivileged user commands run as when the worker is root. */
export interface SandboxUser {
  name: string;
  uid: number;
  gid: number;
  /** util-linux's setpriv, which drops to the user right before bash starts. */
  setpriv: string;
}

const DEFAULT_USER = 'nobody';

/**
 * Who tool commands run as. A worker that is not root returns undefined: its commands run as its own
 * user, which is not root. A root worker must never give its commands uid 0 (they could read
 * /etc/shadow and change any host file a mount shows them), so it drops to `AGENT_SANDBOX_USER` (a
 * user name or `uid[:gid]`, default `nobody`). A user that does not exist, is root, or setpriv
 * missing stops the worker at start with SandboxUserError, rather than running commands as root.
 */
export function resolveSandboxUser(requested: string | undefined, isRoot = process.getuid?.() === 0): SandboxUser | undefined {
  if (!isRoot) return undefined;
  const wanted = requested?.trim() || DEFAULT_USER;
  const user = lookUpUser(wanted);
  if (user.uid === 0 || user.gid === 0) {
    throw new SandboxUserError(
      `AGENT_SANDBOX_USER="${wanted}" is root (uid ${user.uid}, gid ${user.gid}); the worker runs as root, and tool commands ` +
        'must not. Name an unprivileged user (default: nobody), or run the worker as a non-root user.',
    );
  }
  const setpriv = findExecutable('setpriv', '/usr/bin:/bin:/usr/sbin:/sbin');
  if (!setpriv) {
    throw new SandboxUserError(
      'The worker runs as root and needs setpriv (util-linux) to run tool commands as an unprivileged user; ' +
        'install util-linux, or run the worker as a non-root user.',
    );
  }
  return { ...user, setpriv };
}

function lookUpUser(wanted: string): { name: string; uid: number; gid: number } {
  const numeric = /^(\d+)(?::(\d+))?$/.exec(wanted);
  if (numeric) {
    const uid = Number(numeric[1]);
    return { name: wanted, uid, gid: numeric[2] === undefined ? uid : Number(numeric[2]) };
  }
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    // Reported below as an unknown user.
  }
  for (const line of passwd.split('\n')) {
    const [name, , uid, gid] = line.split(':');
    if (name === wanted && uid !== undefined && gid !== undefined) return { name, uid: Number(uid), gid: Number(gid) };
  }
  throw new SandboxUserError(
    `AGENT_SANDBOX_USER="${wanted}" is not a user in /etc/passwd. The worker runs as root, so tool commands run as an ` +
      'unprivileged user: create it (useradd --system agent-sandbox), or give a numeric uid[:gid].',
  );
}
