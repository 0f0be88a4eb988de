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

describe('createAuthenticator timing', () => {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  async function timeOf(check: () => Promise<unknown>): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const started = performance.now();
      await check();
      times.push(performance.now() - started);
    }
    return median(times);
  }

  it('spends one scrypt check on a name that does not exist, as on a wrong password, so timing does not reveal names', async () => {
    const auth = createAuthenticator({ localToken: 'tok-0123456789abcdef', localUser: 'owner', users: [{ name: 'bo', passwordHash: await hashPassword('pw') }] });
    await auth.authenticate('warm-up', 'x');
    const wrongPassword = await timeOf(() => auth.authenticate('bo', 'not-pw'));
    const unknownName = await timeOf(() => auth.authenticate('nobody-here', 'not-pw'));
    const emptySecret = await timeOf(() => auth.authenticate('bo', ''));
    // scrypt takes tens of milliseconds; a lookup that skipped it would take well under one.
    expect(wrongPassword).toBeGreaterThan(5);
    expect(unknownName).toBeGreaterThan(wrongPassword * 0.5);
    expect(unknownName).toBeLessThan(wrongPassword * 2);
    expect(emptySecret).toBeGreaterThan(wrongPassword * 0.5);
    expect(await auth.authenticate('nobody-here', 'pw')).toBeUndefined();
  });
});
