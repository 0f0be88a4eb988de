import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../../src/console/auth/authenticator';
import { hashPassword } from '../../../src/console/auth/password-hash';

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
