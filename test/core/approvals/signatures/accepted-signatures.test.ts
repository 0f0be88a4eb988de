// Issue 32, must-have 6: a signature is accepted once, kept until it expires, and the list is bounded.
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { replayRefusal, signatureHash, withAcceptedSignature, type AcceptedSignature } from '../../../../src/core/approvals/signatures/accepted-signatures';
import { replyMessage, signedText } from '../../../../src/core/approvals/signatures/signed-message';
import { StateLimits } from '../../../../src/core/machine/run-state';
import { senderRefusal } from '../../../../src/core/machine/sender-rules';
import { runState, T0 } from '../../machine/state-factory';

const iso = (ms: number) => new Date(ms).toISOString();

describe('accepted signatures', () => {
  it('refuses a signature seen before until it expires, naming when it was accepted', () => {
    const list = withAcceptedSignature([], { signature: 'c2ln', expiresAt: iso(T0 + 60_000) }, iso(T0), T0, 10);
    expect(list).toEqual([{ hash: signatureHash('c2ln'), expiresAt: iso(T0 + 60_000), acceptedAt: iso(T0) }]);
    expect(replayRefusal(list, 'c2ln', T0 + 1, 10)).toBe(`this signed message was already accepted at ${iso(T0)}; a signature is accepted once: sign a new one`);
    expect(replayRefusal(list, 'b3RoZXI=', T0 + 1, 10)).toBeUndefined();
    // Past its expiry the entry no longer counts (the signature itself fails then) and is pruned.
    expect(replayRefusal(list, 'c2ln', T0 + 60_000, 10)).toBeUndefined();
    expect(withAcceptedSignature(list, { signature: 'bmV3', expiresAt: iso(T0 + 120_000) }, iso(T0 + 60_000), T0 + 60_000, 10).map((a) => a.hash)).toEqual([signatureHash('bmV3')]);
  });

  it('refuses one more than the limit of live signatures, naming the limit and when room comes back', () => {
    let list: AcceptedSignature[] = [];
    for (let i = 0; i < 3; i++) list = withAcceptedSignature(list, { signature: `s${i}`, expiresAt: iso(T0 + 1000 * (i + 1)) }, iso(T0), T0, 3);
    expect(replayRefusal(list, 'fresh', T0, 3)).toBe(
      `this run holds 3 accepted signatures that have not expired, its limit (StateLimits.acceptedSignatures = 3): send it again after ${iso(T0 + 1000)}, when the first expires, or sign with a shorter expiry`,
    );
    expect(replayRefusal(list, 'fresh', T0 + 1000, 3)).toBeUndefined();
    expect(StateLimits.acceptedSignatures).toBeGreaterThan(0);
  });
});

describe('a signed reply is accepted once (the machine)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const approverKeys = { ana: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex') };
  const expiresAt = iso(T0 + 600_000);
  const text = 'staging';
  const message = replyMessage({ namespace: 'default', workflowId: 'run-1', runId: 'r1' }, { callId: 'q1', sender: 'ana', text, expiresAt });
  const signature = sign(null, Buffer.from(signedText(message), 'utf8'), privateKey).toString('base64');
  const state = runState({
    approverKeys,
    input: { ...runState().input, approvers: ['ana'] },
    pendingQuestion: { callId: 'q1', question: 'Which?', askedAt: iso(T0) },
  });
  const env = { now: T0 + 1, namespace: 'default', firstRunId: 'r1', signedOnce: true };
  const payload = { text, sender: 'ana', signature, expiresAt };

  it('takes the reply, then refuses the same signed payload once it is recorded; before the patch it did not', () => {
    expect(senderRefusal(state, 'reply', payload, env)).toBeUndefined();
    const seen = { ...state, acceptedSignatures: withAcceptedSignature([], { signature, expiresAt }, iso(T0 + 1), T0 + 1, 10) };
    expect(senderRefusal(seen, 'reply', payload, env)).toMatch(/^this signed message was already accepted at .*; ignored$/);
    expect(senderRefusal(seen, 'reply', payload, { ...env, signedOnce: false })).toBeUndefined();
  });
});
