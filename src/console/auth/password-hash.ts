// Password hashes for the console's users file. scrypt is in Node's crypto, so no native add-on is
// needed, and it is memory-hard, so a stolen users file is expensive to brute-force.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PREFIX = 'scrypt';
/** N=2^15, r=8, p=1: about 50 ms per check on these machines, 32 MiB of memory. */
const DEFAULTS = { N: 32_768, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function derive(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_BYTES, { ...options, maxmem: 128 * options.N! * options.r! * 2 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$<salt base64>$<key base64>`: everything needed to check a password later. */
export async function hashPassword(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, DEFAULTS);
  return [PREFIX, DEFAULTS.N, DEFAULTS.r, DEFAULTS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether the hash has the shape `hashPassword` writes (checked when the users file is loaded). */
export function isPasswordHash(value: string): boolean {
  return /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/.test(value);
}

/** Checks `secret` against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(secret: string, stored: string): Promise<boolean> {
  if (!isPasswordHash(stored)) return false;
  const [, n, r, p, salt, key] = stored.split('$') as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(secret, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
