// Signed decisions, replies and messages, checked inside the workflow (what is signed: signed-message.ts).
// This file is bundled into Temporal workflow code, so it must stay pure and deterministic: it imports
// only @noble/curves (a pure-JS Ed25519 that needs neither WebCrypto nor Buffer) and our own pure
// base64 decoder; no Node built-ins, no I/O.
// The registry it checks against is read from disk on the Node side (approver-registry.ts) and
// reaches the workflow as plain data.
import { ed25519 } from '@noble/curves/ed25519';
import { MAX_SIGNATURE_LIFETIME_MS, signedText, type SignedMessage } from './signed-message';
import { decodeStrictBase64 } from './strict-base64';

const PUBLIC_KEY_HEX = /^[0-9a-fA-F]{64}$/;
const SIGNATURE_BYTES = 64;

/**
 * True only when `signatureBase64` is a valid Ed25519 signature of `text` under the raw 32-byte key
 * `publicKeyHex`. It never throws: malformed base64, a wrong length or a malformed key all give
 * false, so a bad payload from any client is refused rather than failing the workflow task.
 */
export function verifyDecisionSignature(args: { publicKeyHex: string; text: string; signatureBase64: string }): boolean {
  if (!PUBLIC_KEY_HEX.test(args.publicKeyHex)) return false;
  const signature = decodeStrictBase64(args.signatureBase64);
  if (signature?.length !== SIGNATURE_BYTES) return false;
  try {
    // TextEncoder is one of the globals Temporal injects into the workflow sandbox.
    const message = new TextEncoder().encode(args.text);
    // zip215: false is RFC 8032's strict rule, the one Node's crypto.verify (OpenSSL) applies, so
    // the workflow accepts exactly the signatures the signing side would accept.
    return ed25519.verify(signature, message, args.publicKeyHex, { zip215: false });
  } catch {
    return false;
  }
}

/** Whether a decision, reply or message may be applied, and if not, a reason a person can act on. */
export type SignatureCheck = { ok: true } | { ok: false; reason: string };

const RESIGN = 'decide again with `agentctl` or the console of this release, which sign the v2 canonical message (docs/guides/approvals.md, "Re-signing")';

/**
 * Checks a signed decision, reply or message against the approver registry (name to raw public key
 * as hex). With no registry (AGENT_APPROVERS_FILE unset) everything passes, as before signatures
 * existed. With one, `signer` must be registered, `signature` must be that key's signature over
 * `signedText(message)`, and `message.expiresAt` must lie ahead of `now` (and not too far ahead).
 * `message` is built by the verifier from the run's own state; only its decision fields and expiry
 * came from the sender. `legacy` is the v1 text the same payload would have signed, to name an old
 * signature as such.
 */
export function checkSignature(args: {
  registry: Readonly<Record<string, string>> | undefined;
  signer: string | undefined;
  signature: string | undefined;
  /** The message with the sender's `expiresAt`, or undefined when the payload carried none. */
  message: SignedMessage | undefined;
  now: number;
  legacy?: string;
  /** What is signed, for the wording when `message` is undefined. */
  kind?: SignedMessage['kind'];
}): SignatureCheck {
  const { registry, signer, signature, message, now } = args;
  if (registry === undefined) return { ok: true };
  const what = message?.kind ?? args.kind ?? 'decision';
  if (!signature) {
    return {
      ok: false,
      reason: `unsigned ${what}: this worker requires signatures (AGENT_APPROVERS_FILE is set); send it with \`agentctl\` or the console as someone with a key from \`agentctl keys create\``,
    };
  }
  if (!signer) return { ok: false, reason: `signed ${what} names no signer: set ${what === 'decision' ? 'approver' : 'sender'} to the name the signing key is registered under` };
  // hasOwn, not `in`: a name such as "constructor" must not find something on Object.prototype.
  const publicKeyHex = Object.hasOwn(registry, signer) ? registry[signer] : undefined;
  if (publicKeyHex === undefined) {
    return { ok: false, reason: `unknown approver ${signer}: not in the approver registry; add the entry printed by \`agentctl keys create ${signer}\` to AGENT_APPROVERS_FILE` };
  }
  const legacy = args.legacy !== undefined && verifyDecisionSignature({ publicKeyHex, text: args.legacy, signatureBase64: signature });
  if (message === undefined || legacy) {
    return { ok: false, reason: `old-format signature (v1, newline-joined text, no expiry) refused: it does not say which run, arguments or reason it covers; ${RESIGN}` };
  }
  const expires = Date.parse(message.expiresAt);
  if (Number.isNaN(expires)) return { ok: false, reason: `expiresAt "${message.expiresAt}" is not an ISO date-time; ${RESIGN}` };
  if (expires <= now) return { ok: false, reason: `signature expired at ${message.expiresAt}; ${what === 'decision' ? 'decide' : 'send it'} again` };
  if (expires - now > MAX_SIGNATURE_LIFETIME_MS) {
    return { ok: false, reason: `signature expires at ${message.expiresAt}, more than ${MAX_SIGNATURE_LIFETIME_MS / 3_600_000}h ahead: sign with a nearer expiry` };
  }
  if (!verifyDecisionSignature({ publicKeyHex, text: signedText(message), signatureBase64: signature })) {
    const covered = message.kind === 'decision' ? `namespace, run, call, arguments${message.editedArgumentsHash ? ' (the original and the edited ones)' : ''}, decision, scope, prefix, reason and expiry` : message.kind === 'budget' ? 'namespace, run, new limits and expiry' : 'namespace, run, text and expiry';
    return { ok: false, reason: `bad signature for ${signer}: it was not made over this ${what}'s ${covered} with ${signer}'s registered key` };
  }
  return { ok: true };
}
