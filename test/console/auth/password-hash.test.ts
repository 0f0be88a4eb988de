import { describe, expect, it } from 'vitest';
import { hashPassword, isPasswordHash, verifyPassword } from '../../../src/console/auth/password-hash';

describe('password hashes', () => {
  it('verify the password they were made from and nothing else; each hash has its own salt', async () => {
    const hash = await hashPassword('s3cret pass');
    expect(isPasswordHash(hash)).toBe(true);
    expect(await verifyPassword('s3cret pass', hash)).toBe(true);
    expect(await verifyPassword('s3cret pas', hash)).toBe(false);
    expect(await hashPassword('s3cret pass')).not.toBe(hash);
    expect(await verifyPassword('anything', 'plain-text-password')).toBe(false);
  });
});
