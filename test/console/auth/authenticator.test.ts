import { describe, expect, it, vi } from 'vitest';
import { createAuthenticator } from '../../../src/console/auth/authenticator';
import { hashPassword, verifyPassword } from '../../../src/console/auth/password-hash';

vi.mock('../../../src/console/auth/password-hash', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/console/auth/password-hash')>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

describe('createAuthenticator', () => {
  it('maps the start token to the local user and passwords to their users', async () => {
    const auth = createAuthenticator({ localToken: 'tok-0123456789abcdef', localUser: 'owner', users: [{ name: 'bo', passwordHash: await hashPassword('pw') }] });
    expect(await auth.authenticate('', 'tok-0123456789abcdef')).toBe('owner');
    expect(await auth.authenticate('owner', 'tok-0123456789abcdef')).toBe('owner');
    expect(await auth.authenticate('bo', 'tok-0123456789abcdef')).toBeUndefined();
    expect(await auth.authenticate('bo', 'pw')).toBe('bo');
    expect(await auth.authenticate(' bo ', 'pw')).toBe('bo');
    expect(await auth.authenticate('bo', '')).toBeUndefined();
  });
});

describe('createAuthenticator against name probing', () => {
  // Counted, not timed: every attempt that is not the start token must run exactly one scrypt
  // check with the same cost parameters as a real user's hash, so a wrong name or an empty secret
  // takes as long as a wrong password without the test depending on this machine's load.
  it('spends one scrypt check of the same cost on a name that does not exist, as on a wrong password, so timing does not reveal names', async () => {
    const userHash = await hashPassword('pw');
    const auth = createAuthenticator({ localToken: 'tok-0123456789abcdef', localUser: 'owner', users: [{ name: 'bo', passwordHash: userHash }] });
    const costOf = (hash: string) => hash.split('$').slice(0, 4).join('$');
    const checks = vi.mocked(verifyPassword);
    for (const [name, secret] of [['bo', 'not-pw'], ['nobody-here', 'not-pw'], ['bo', ''], ['nobody-here', 'pw']] as const) {
      checks.mockClear();
      expect(await auth.authenticate(name, secret)).toBeUndefined();
      expect(checks).toHaveBeenCalledTimes(1);
      expect(costOf(checks.mock.calls[0]![1])).toBe(costOf(userHash));
    }
  });
});
