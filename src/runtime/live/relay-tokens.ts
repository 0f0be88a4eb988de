import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Tokens for the relay's feeds, one per run: an HMAC of the namespace and workflow id under a secret
 * that never leaves this worker process (a new one each start). The relay hands a run's token only
 * to that run's model call, which puts it in its heartbeat, so whoever can read the heartbeat (and
 * decode it, when payloads are encrypted) can read that run's feed, and nothing else: a token opens no
 * other run, and a new worker process does not accept its predecessor's.
 */
export class RelayTokens {
  private readonly secret: Buffer;
  /**
   * Tokens handed out lately, by their HMAC's input: every model call of a run asks for the same one,
   * and a new HMAC each time was a visible part of the call's CPU (bench/results/cpu-main-thread.md).
   * Bounded; the oldest goes first. `accepts` does not read it, so how long a check takes does not
   * tell whether a run's token was handed out here.
   */
  private readonly handedOut = new Map<string, string>();

  constructor(
    secret: Buffer = randomBytes(32),
    private readonly remember = 4_096,
  ) {
    this.secret = secret;
  }

  tokenFor(namespace: string, workflowId: string): string {
    const input = `${namespace}\n${workflowId}`;
    let token = this.handedOut.get(input);
    if (token === undefined) {
      token = this.sign(input);
      if (this.handedOut.size >= this.remember) this.handedOut.delete(this.handedOut.keys().next().value as string);
      this.handedOut.set(input, token);
    }
    return token;
  }

  private sign(input: string): string {
    return createHmac('sha256', this.secret).update(input).digest('base64url');
  }

  /** Compares in constant time, so a guess learns nothing from how long a refusal took. */
  accepts(namespace: string, workflowId: string, token: string | undefined): boolean {
    if (!token) return false;
    const expected = Buffer.from(this.sign(`${namespace}\n${workflowId}`));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
