// Signed approval decisions, checked inside the workflow. This file is bundled into Temporal workflow
// code, so it must stay pure and deterministic: it imports only @noble/curves (a pure-JS Ed25519 that
// needs neither WebCrypto nor Buffer) and our own pure base64 decoder; no Node built-ins, no I/O.
// The registry it checks against is read from disk on the Node side (approver-registry.ts) and
// reaches the workflow as plain data.
import { ed25519 } from '@noble/curves/ed25519';
import { decodeStrictBase64 } from './strict-base64';

/** The fields of a decision that a signature covers, plus the signature itself. */
export interface SignedDecisionFields {
  callId: string;
  decision: string;
  approver?: string;
  /** Base64 Ed25519 signature over `decisionSigningText(...)`. */
  signature?: string;
  /** What a scoped "always" applies to (e.g. `tool` or `prefix:npm test`); signed when present. */
  scope?: string;
}

/**
 * The exact UTF-8 text an approver signs: `${workflowId}\n${callId}\n${decision}\n${approver}`.
 * A decision without a scope signs exactly that contract text. When `scope` is given, a fifth line
 * `\n${scope}` is appended, so a signed "approve_always" for one scope cannot be replayed as the
 * same decision for a wider one. Binding the workflow id stops a signature for one run from being
 * sent to another run that happens to park a call with the same id.
 */
export function decisionSigningText(d: { workflowId: string; callId: string; decision: string; approver: string; scope?: string }): string {
  const text = `${d.workflowId}\n${d.callId}\n${d.decision}\n${d.approver}`;
  return d.scope === undefined ? text : `${text}\n${d.scope}`;
}

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

/** Whether a decision may be applied, and if not, a reason a person can act on. */
export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks a decision against the approver registry (name to raw public key as hex). With no registry
 * (AGENT_APPROVERS_FILE unset) every decision passes, as before signatures existed; with one, the
 * decision must name a registered approver and carry that approver's signature.
 */
export function checkDecisionSignature(args: {
  registry: Readonly<Record<string, string>> | undefined;
  workflowId: string;
  decision: SignedDecisionFields;
}): SignatureCheck {
  const { registry, workflowId, decision } = args;
  if (registry === undefined) return { ok: true };
  if (!decision.signature) {
    return {
      ok: false,
      reason:
        'unsigned decision: this worker requires signed decisions (AGENT_APPROVERS_FILE is set); ' +
        'sign it with `agentctl approve` using a key from `agentctl keys create`',
    };
  }
  const approver = decision.approver;
  if (!approver) return { ok: false, reason: 'signed decision names no approver: set approver to the name the signing key is registered under' };
  // hasOwn, not `in`: a name such as "constructor" must not find something on Object.prototype.
  const publicKeyHex = Object.hasOwn(registry, approver) ? registry[approver] : undefined;
  if (publicKeyHex === undefined) {
    return {
      ok: false,
      reason: `unknown approver ${approver}: not in the approver registry; add the entry printed by \`agentctl keys create ${approver}\` to AGENT_APPROVERS_FILE`,
    };
  }
  const text = decisionSigningText({ workflowId, callId: decision.callId, decision: decision.decision, approver, scope: decision.scope });
  if (!verifyDecisionSignature({ publicKeyHex, text, signatureBase64: decision.signature })) {
    return {
      ok: false,
      reason: `bad signature for approver ${approver}: it was not made over this run, call, decision${decision.scope === undefined ? '' : ' and scope'} with ${approver}'s registered key`,
    };
  }
  return { ok: true };
}
