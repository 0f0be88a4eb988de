// Replays (issue 32, must-have 6): a signed decision, reply or message is accepted once. The run keeps
// the sha-256 of every signature it accepted until that signature expires (it cannot verify after
// that anyway), so a payload lifted from the history and sent again is refused by name.
// Pure: bundled into workflow code (sha256 is @noble/hashes, pure JS); time is the caller's workflow time.
import { sha256 } from '@noble/hashes/sha256';
import { z } from 'zod';

export const AcceptedSignatureSchema = z.object({
  /** sha-256 (hex) of the signature as sent (strict base64, so one signature has one spelling). */
  hash: z.string(),
  /** The signed `expiresAt`: the entry is dropped once workflow time passes it. */
  expiresAt: z.string(),
  /** When the run accepted it (workflow time), for the refusal of a second delivery. */
  acceptedAt: z.string(),
});
export type AcceptedSignature = z.infer<typeof AcceptedSignatureSchema>;

/** sha-256 (hex) of a signature, the key a replay is found by. */
export function signatureHash(signature: string): string {
  const digest = sha256(new TextEncoder().encode(signature));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const live = (accepted: readonly AcceptedSignature[], now: number) => accepted.filter((a) => Date.parse(a.expiresAt) > now);

/**
 * Why this signature may not be accepted (again), or undefined when it may: it was accepted before
 * and has not expired, or the run already holds `limit` unexpired signatures (the bound on the
 * checkpoint; `StateLimits.acceptedSignatures`).
 */
export function replayRefusal(accepted: readonly AcceptedSignature[], signature: string, now: number, limit: number): string | undefined {
  const current = live(accepted, now);
  const hash = signatureHash(signature);
  const seen = current.find((a) => a.hash === hash);
  if (seen) return `this signed message was already accepted at ${seen.acceptedAt}; a signature is accepted once: sign a new one`;
  if (current.length >= limit) {
    const first = current.reduce((a, b) => (Date.parse(a.expiresAt) <= Date.parse(b.expiresAt) ? a : b));
    return `this run holds ${current.length} accepted signatures that have not expired, its limit (StateLimits.acceptedSignatures = ${limit}): send it again after ${first.expiresAt}, when the first expires, or sign with a shorter expiry`;
  }
  return undefined;
}

/** The list with `signature` added and the expired entries dropped (workflow time `now`, ISO `at`), at most `limit` long. */
export function withAcceptedSignature(accepted: readonly AcceptedSignature[], signed: { signature: string; expiresAt: string }, at: string, now: number, limit: number): AcceptedSignature[] {
  const hash = signatureHash(signed.signature);
  const kept = live(accepted, now).filter((a) => a.hash !== hash);
  return [...kept, { hash, expiresAt: signed.expiresAt, acceptedAt: at }].slice(-limit);
}
