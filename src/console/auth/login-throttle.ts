// Slows password guessing: per user name and per client address, failed logins within a window lock
// further attempts out for a while that doubles with each lockout, and only one attempt per name and
// per address is checked at a time, so guesses sent in parallel queue up behind the same limits (a
// second one at once is refused rather than checked). All in memory, like the sessions.

/** Why an attempt may not go ahead, and when it may; answered with 429 and Retry-After. */
export interface LoginRefusal {
  retryAfterSeconds: number;
  message: string;
}

export interface LoginThrottleLimits {
  /** Failures per name within `windowMs` before that name is locked out. */
  perUser: number;
  /** Failures per client address within `windowMs` before that address is locked out. */
  perAddress: number;
  windowMs: number;
  /** The first lockout; each further lockout of the same key doubles it, up to `maxLockoutMs`. */
  lockoutMs: number;
  maxLockoutMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = { perUser: 5, perAddress: 20, windowMs: 15 * 60_000, lockoutMs: 30_000, maxLockoutMs: 15 * 60_000 };

interface KeyState {
  failures: number[];
  lockouts: number;
  lockedUntil: number;
  busy: boolean;
}

export class LoginThrottle {
  private readonly keys = new Map<string, KeyState>();
  constructor(private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS, private readonly now: () => number = Date.now) {}

  /**
   * Claims the attempt for `name` from `address`, or says why it may not run. A claimed attempt must
   * be settled with `settle(ok)`; until then another attempt for the same name or address is refused.
   */
  begin(name: string, address: string): { refused: LoginRefusal } | { settle: (ok: boolean) => void } {
    const keys = [`user:${name.trim().toLowerCase()}`, `addr:${address}`];
    const states = keys.map((key) => this.state(key));
    const now = this.now();
    const locked = Math.max(...states.map((s) => s.lockedUntil));
    if (locked > now) {
      const seconds = Math.ceil((locked - now) / 1000);
      return { refused: { retryAfterSeconds: seconds, message: `Too many failed logins for this name or from this address. Try again in ${seconds} s.` } };
    }
    if (states.some((s) => s.busy)) {
      return { refused: { retryAfterSeconds: 1, message: 'Another login for this name or from this address is being checked. Try again in a moment.' } };
    }
    for (const s of states) s.busy = true;
    return {
      settle: (ok) => {
        for (const s of states) s.busy = false;
        if (ok) {
          states[0]!.failures = [];
          return;
        }
        states.forEach((s, i) => this.fail(s, i === 0 ? this.limits.perUser : this.limits.perAddress));
      },
    };
  }

  private fail(state: KeyState, limit: number): void {
    const now = this.now();
    state.failures = [...state.failures.filter((at) => at > now - this.limits.windowMs), now];
    if (state.failures.length < limit) return;
    state.lockedUntil = now + Math.min(this.limits.lockoutMs * 2 ** state.lockouts, this.limits.maxLockoutMs);
    state.lockouts += 1;
    state.failures = [];
  }

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      // Forget keys that have nothing left to remember, so a stream of random names cannot grow the map forever.
      if (this.keys.size > 10_000) this.sweep();
      state = { failures: [], lockouts: 0, lockedUntil: 0, busy: false };
      this.keys.set(key, state);
    }
    return state;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, s] of this.keys) {
      if (!s.busy && s.lockedUntil <= now && s.failures.every((at) => at <= now - this.limits.windowMs)) this.keys.delete(key);
    }
  }
}
