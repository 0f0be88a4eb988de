import { describe, expect, it } from 'vitest';
import { LoginThrottle, type LoginThrottleLimits } from '../../../src/console/auth/login-throttle';

const LIMITS: LoginThrottleLimits = { perUser: 3, perAddress: 5, windowMs: 60_000, lockoutMs: 10_000, maxLockoutMs: 40_000 };

function failTimes(throttle: LoginThrottle, name: string, address: string, times: number): void {
  for (let i = 0; i < times; i += 1) {
    const attempt = throttle.begin(name, address);
    if (!('settle' in attempt)) throw new Error(`attempt ${i} was refused: ${attempt.refused.message}`);
    attempt.settle(false);
  }
}

describe('LoginThrottle', () => {
  it('locks a name out after too many failures, from any address, and says when to try again', () => {
    let now = 0;
    const throttle = new LoginThrottle(LIMITS, () => now);
    failTimes(throttle, 'alice', '10.0.0.1', 2);
    failTimes(throttle, 'Alice ', '10.0.0.2', 1);
    const refused = throttle.begin('alice', '10.0.0.3');
    expect(refused).toEqual({ refused: { retryAfterSeconds: 10, message: expect.stringContaining('Try again in 10 s') } });
    // Another name from the same addresses is not affected by alice's lockout.
    expect('settle' in throttle.begin('bob', '10.0.0.9')).toBe(true);
    now += 10_001;
    const after = throttle.begin('alice', '10.0.0.3');
    expect('settle' in after).toBe(true);
  });

  it('locks an address out after too many failures across names, and doubles each further lockout', () => {
    let now = 0;
    const throttle = new LoginThrottle(LIMITS, () => now);
    for (const name of ['a', 'b', 'c', 'd', 'e']) failTimes(throttle, name, '10.0.0.1', 1);
    expect(throttle.begin('f', '10.0.0.1')).toMatchObject({ refused: { retryAfterSeconds: 10 } });
    expect('settle' in throttle.begin('f', '10.0.0.2')).toBe(true);
    now += 10_001;
    for (const name of ['g', 'h', 'i', 'j', 'k']) failTimes(throttle, name, '10.0.0.1', 1);
    expect(throttle.begin('l', '10.0.0.1')).toMatchObject({ refused: { retryAfterSeconds: 20 } });
  });

  it('checks one attempt per name and per address at a time, so parallel guesses are refused, not checked', () => {
    const throttle = new LoginThrottle(LIMITS, () => 0);
    const first = throttle.begin('alice', '10.0.0.1');
    expect('settle' in first).toBe(true);
    expect(throttle.begin('alice', '10.0.0.2')).toMatchObject({ refused: { message: expect.stringContaining('being checked') } });
    expect(throttle.begin('bob', '10.0.0.1')).toMatchObject({ refused: { message: expect.stringContaining('being checked') } });
    if ('settle' in first) first.settle(true);
    expect('settle' in throttle.begin('alice', '10.0.0.2')).toBe(true);
  });

  it('forgets a name\'s failures once it logs in', () => {
    const throttle = new LoginThrottle(LIMITS, () => 0);
    failTimes(throttle, 'alice', '10.0.0.1', 2);
    const ok = throttle.begin('alice', '10.0.0.1');
    if ('settle' in ok) ok.settle(true);
    failTimes(throttle, 'alice', '10.0.0.2', 2);
    expect('settle' in throttle.begin('alice', '10.0.0.3')).toBe(true);
  });
});
