// Who may log in: the person who started the console, with the random token it printed, and the
// people of the users file, with their passwords.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashPassword, verifyPassword } from './password-hash';
import type { ConsoleUser } from './users-file';

export interface Authenticator {
  /** The logged-in name, or undefined when the name and secret do not match. */
  authenticate(name: string, secret: string): Promise<string | undefined>;
}

/** 32 random bytes: the start-up token, printed once and never stored on disk. */
export function newLoginToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time equality of two strings of any length (hashing first makes the lengths equal). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * The start-up token logs in as `localUser` (the login name of whoever started the console); the
 * name field may be left empty for it. A users-file entry of the same name logs in with its password.
 *
 * Every attempt that is not the start token costs one scrypt check: a name that does not exist (or an
 * empty secret) is checked against a dummy hash of a random password, so a wrong name takes as long
 * as a wrong password and the answer time does not tell which names exist.
 */
export function createAuthenticator(options: { localToken?: string; localUser: string; users: readonly ConsoleUser[] }): Authenticator {
  const users = new Map(options.users.map((u) => [u.name, u]));
  // Made at once (in the thread pool), so the first unknown name is not slower than the rest.
  const dummyHash = hashPassword(randomBytes(16).toString('base64url'));
  dummyHash.catch(() => undefined);
  return {
    async authenticate(name, secret) {
      const wanted = name.trim();
      if (secret && options.localToken && (wanted === '' || wanted === options.localUser) && sameSecret(secret, options.localToken)) return options.localUser;
      const user = users.get(wanted);
      const hash = user?.passwordHash ?? (await dummyHash);
      const matches = await verifyPassword(secret, hash);
      return user && secret && matches ? user.name : undefined;
    },
  };
}
