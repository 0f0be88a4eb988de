// The relay's per-run tokens (src/runtime/live/relay-tokens.ts): remembering the ones handed out
// (issue 37, the model call's main-thread share) gives the same token as signing anew, however many
// runs come and go, and the check still accepts exactly the run's own token.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RelayTokens } from '../../../src/runtime/live/relay-tokens';

const signed = (secret: Buffer, namespace: string, workflowId: string) => createHmac('sha256', secret).update(`${namespace}\n${workflowId}`).digest('base64url');

describe('RelayTokens', () => {
  it('hands out the HMAC of the namespace and workflow id, the same on every call, also past what it remembers', () => {
    const secret = randomBytes(32);
    const tokens = new RelayTokens(secret, 3);
    const runs = Array.from({ length: 8 }, (_, i) => `run-${i}`);
    for (let round = 0; round < 3; round += 1) {
      for (const run of runs) expect(tokens.tokenFor('default', run)).toBe(signed(secret, 'default', run));
    }
    expect(tokens.tokenFor('other', 'run-0')).toBe(signed(secret, 'other', 'run-0'));
    expect(tokens.tokenFor('other', 'run-0')).not.toBe(tokens.tokenFor('default', 'run-0'));
  });

  it("accepts a run's own token only, whether it was handed out lately or never", () => {
    const tokens = new RelayTokens(randomBytes(32), 2);
    const token = tokens.tokenFor('default', 'run-a');
    expect(tokens.accepts('default', 'run-a', token)).toBe(true);
    expect(tokens.accepts('default', 'run-b', token)).toBe(false);
    expect(tokens.accepts('other', 'run-a', token)).toBe(false);
    expect(tokens.accepts('default', 'run-a', undefined)).toBe(false);
    // A token never handed out by this process (another worker's secret) is refused.
    expect(tokens.accepts('default', 'run-c', new RelayTokens(randomBytes(32)).tokenFor('default', 'run-c'))).toBe(false);
    // Pushed out of what is remembered, the token still opens its run.
    tokens.tokenFor('default', 'run-x');
    tokens.tokenFor('default', 'run-y');
    expect(tokens.accepts('default', 'run-a', token)).toBe(true);
    expect(tokens.tokenFor('default', 'run-a')).toBe(token);
  });
});
