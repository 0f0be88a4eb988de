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

  constructor(secret: Buffer = randomBytes(32)) {
    this.secret = secret;
  }

  tokenFor(namespace: string, workflowId: string): string {
    return createHmac('sha256', this.secret).update(`${namespace}\n${workflowId}`).digest('base64url');
  }

  /** Compares in constant time, so a guess learns nothing from how long a refusal took. */
  accepts(namespace: string, workflowId: string, token: string | undefined): boolean {
    if (!token) return false;
    const expected = Buffer.from(this.tokenFor(namespace, workflowId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
