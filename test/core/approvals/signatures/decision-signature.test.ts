import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSignature, verifyDecisionSignature } from '../../../../src/core/approvals/signatures/decision-signature';
import {
  argumentsHash,
  decisionMessage,
  followUpMessage,
  legacyDecisionText,
  replyMessage,
  signedText,
  type DecisionFields,
  type RunIdentity,
} from '../../../../src/core/approvals/signatures/signed-message';
import { decodeStrictBase64 } from '../../../../src/core/approvals/signatures/strict-base64';
import { canonicalJson } from '../../../../src/core/approvals/canonical-json';

// Keys and signatures come from Node's crypto (OpenSSL), as they will in agentctl, so these tests
// show that the pure-JS verifier in workflow code accepts what the Node side produces.
function nodeKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { privateKey, publicKeyHex: der.subarray(der.length - 32).toString('hex') };
}
const ana = nodeKeyPair();
const bo = nodeKeyPair();
const signAs = (key: typeof ana, text: string) => sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64');

const NOW = Date.parse('2026-11-25T12:00:00Z');
const run: RunIdentity = { namespace: 'default', workflowId: 'run-1', runId: 'first-run-id' };
const callArgs = { command: 'npm test' };
const fields: DecisionFields = { callId: 'call-7', decision: 'approve', approver: 'ana', expiresAt: '2026-11-25T12:30:00.000Z' };
const text = signedText(decisionMessage(run, callArgs, fields));
const base = { workflowId: 'run-1', callId: 'call-7', decision: 'approve', approver: 'ana' };

describe('signedText', () => {
  it('is the canonical JSON of a typed, versioned object with every field present', () => {
    expect(JSON.parse(text)).toEqual({
      v: 2,
      kind: 'decision',
      namespace: 'default',
      workflowId: 'run-1',
      runId: 'first-run-id',
      callId: 'call-7',
      argumentsHash: createHash('sha256').update(canonicalJson(callArgs)).digest('hex'),
      decision: 'approve',
      approver: 'ana',
      scope: null,
      prefix: null,
      reason: null,
      expiresAt: '2026-11-25T12:30:00.000Z',
    });
    expect(text).toBe(canonicalJson(JSON.parse(text)));
  });

  it('hashes the canonical arguments with the same sha256 Node computes, whatever the key order', () => {
    const args = { b: [1, { y: 'é', x: null }], a: 'line\nbreak' };
    expect(argumentsHash(args)).toBe(createHash('sha256').update(canonicalJson(args), 'utf8').digest('hex'));
    expect(argumentsHash({ a: 'line\nbreak', b: [1, { x: null, y: 'é' }] })).toBe(argumentsHash(args));
  });

  it('keeps a newline in a workflow id inside its field: no other run\'s fields can be spelled with it', () => {
    // The v1 attack: a workflow id that embeds a second run's call id, decision and scope.
    const crafted = { ...run, workflowId: 'victim\ncall-7\napprove_always\nana' };
    const signedForCrafted = signedText(decisionMessage(crafted, callArgs, { ...fields, decision: 'reject' }));
    expect(JSON.parse(signedForCrafted).workflowId).toBe(crafted.workflowId);
    const victim = signedText(decisionMessage({ ...run, workflowId: 'victim' }, callArgs, { ...fields, decision: 'approve_always', scope: 'tool' }));
    expect(signedForCrafted).not.toBe(victim);
    expect(signedForCrafted).not.toContain('\n');
  });

  it('names the kind, so a reply or message signature is never a decision signature', () => {
    const reply = signedText(replyMessage(run, { callId: 'call-7', sender: 'ana', text: 'approve', expiresAt: fields.expiresAt }));
    const message = signedText(followUpMessage(run, { sender: 'ana', text: 'approve', expiresAt: fields.expiresAt }));
    expect(JSON.parse(reply)).toMatchObject({ v: 2, kind: 'reply', callId: 'call-7', sender: 'ana', text: 'approve' });
    expect(JSON.parse(message)).toMatchObject({ v: 2, kind: 'message', sender: 'ana', text: 'approve' });
    expect(new Set([reply, message, text]).size).toBe(3);
  });
});

describe('verifyDecisionSignature', () => {
  const signatureBase64 = signAs(ana, text);

  it('accepts a signature Node made over the contract text', () => {
    expect(verifyDecisionSignature({ publicKeyHex: ana.publicKeyHex, text, signatureBase64 })).toBe(true);
  });

  it.each([
    ['namespace', { namespace: 'other' }, {}, callArgs],
    ['workflowId', { workflowId: 'run-2' }, {}, callArgs],
    ['runId (a new run under a reused workflow id)', { runId: 'second-run-id' }, {}, callArgs],
    ['callId', {}, { callId: 'call-8' }, callArgs],
    ['arguments', {}, {}, { command: 'rm -rf /' }],
    ['decision', {}, { decision: 'approve_always' }, callArgs],
    ['approver', {}, { approver: 'bo' }, callArgs],
    ['scope', {}, { scope: 'tool' }, callArgs],
    ['prefix', {}, { prefix: 'npm' }, callArgs],
    ['reason', {}, { reason: 'looks fine' }, callArgs],
    ['expiresAt', {}, { expiresAt: '2026-11-26T12:30:00.000Z' }, callArgs],
  ])('refuses the signature once %s changes', (_field, runChange, fieldChange, args) => {
    const changed = signedText(decisionMessage({ ...run, ...runChange }, args, { ...fields, ...fieldChange }));
    expect(verifyDecisionSignature({ publicKeyHex: ana.publicKeyHex, text: changed, signatureBase64 })).toBe(false);
  });

  it("refuses another approver's key", () => {
    expect(verifyDecisionSignature({ publicKeyHex: bo.publicKeyHex, text, signatureBase64 })).toBe(false);
  });

  it.each([
    ['not base64 at all', '!!not base64!!'],
    ['base64 without its padding', signatureBase64.replace(/=+$/, '')],
    ['base64 with a line break', `${signatureBase64.slice(0, 40)}\n${signatureBase64.slice(40)}`],
    ['a signature one byte short', Buffer.from(signatureBase64, 'base64').subarray(1).toString('base64')],
    ['a signature one byte long', Buffer.concat([Buffer.from(signatureBase64, 'base64'), Buffer.from([0])]).toString('base64')],
    ['an empty string', ''],
  ])('returns false without throwing for %s', (_case, bad) => {
    expect(verifyDecisionSignature({ publicKeyHex: ana.publicKeyHex, text, signatureBase64: bad })).toBe(false);
  });

  it('returns false without throwing for a malformed public key', () => {
    for (const publicKeyHex of ['', 'zz'.repeat(32), ana.publicKeyHex.slice(2), `${ana.publicKeyHex}00`]) {
      expect(verifyDecisionSignature({ publicKeyHex, text, signatureBase64 })).toBe(false);
    }
  });
});

describe('decodeStrictBase64', () => {
  it('decodes what Node encodes, for every padding length', () => {
    for (const length of [0, 1, 2, 3, 4, 5, 64]) {
      const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 37 + 11) & 0xff));
      expect(Buffer.from(decodeStrictBase64(bytes.toString('base64'))!)).toEqual(bytes);
    }
  });

  it('refuses padding in the middle, the URL alphabet and non-zero spare bits', () => {
    expect(decodeStrictBase64('QQ==QQ==')).toBeUndefined();
    expect(decodeStrictBase64('-_-_')).toBeUndefined();
    // "QR==" decodes to the same byte as "QQ==" in lenient decoders; only the canonical form is accepted.
    expect(decodeStrictBase64('QQ==')).toEqual(new Uint8Array([0x41]));
    expect(decodeStrictBase64('QR==')).toBeUndefined();
    expect(decodeStrictBase64('====')).toBeUndefined();
  });
});

describe('checkSignature', () => {
  const registry = { ana: ana.publicKeyHex, bo: bo.publicKeyHex };
  const message = (change: Partial<DecisionFields> = {}) => decisionMessage(run, callArgs, { ...fields, ...change });
  const check = (args: { signer?: string; signature?: string; change?: Partial<DecisionFields>; legacy?: string; now?: number }) =>
    checkSignature({ registry, signer: args.signer ?? 'ana', signature: args.signature, message: message(args.change), now: args.now ?? NOW, legacy: args.legacy });
  const good = signAs(ana, signedText(message()));

  it('lets everything through when no registry is configured', () => {
    expect(checkSignature({ registry: undefined, signer: undefined, signature: undefined, message: undefined, now: NOW })).toEqual({ ok: true });
  });

  it('accepts a decision signed by the registered key of its approver, before it expires', () => {
    expect(check({ signature: good })).toEqual({ ok: true });
  });

  it('refuses an unsigned decision and says how to sign one', () => {
    expect(check({})).toEqual({ ok: false, reason: expect.stringMatching(/^unsigned decision: this worker requires signatures \(AGENT_APPROVERS_FILE is set\)/) });
  });

  it('refuses an approver the registry does not know, including names found on Object.prototype', () => {
    for (const name of ['carl', 'constructor', '__proto__']) {
      expect(check({ signer: name, signature: good })).toEqual({ ok: false, reason: expect.stringMatching(new RegExp(`^unknown approver ${name}: not in the approver registry`)) });
    }
  });

  it("refuses someone else's key, an altered reason and a prefix that was not signed", () => {
    expect(check({ signature: signAs(bo, signedText(message())) })).toEqual({ ok: false, reason: expect.stringMatching(/^bad signature for ana/) });
    expect(check({ signature: good, change: { reason: 'approved by the security team' } })).toEqual({ ok: false, reason: expect.stringMatching(/^bad signature for ana/) });
    expect(check({ signature: good, change: { prefix: 'npm' } })).toEqual({ ok: false, reason: expect.stringMatching(/^bad signature for ana/) });
  });

  it('refuses an expired signature, and one that would live longer than a day', () => {
    expect(check({ signature: good, now: Date.parse(fields.expiresAt) })).toEqual({ ok: false, reason: expect.stringMatching(/^signature expired at 2026-11-25T12:30:00.000Z/) });
    const far = { expiresAt: '2026-11-27T12:00:00.000Z' };
    expect(check({ signature: signAs(ana, signedText(message(far))), change: far })).toEqual({ ok: false, reason: expect.stringMatching(/more than 24h ahead/) });
  });

  it('refuses a v1 (newline-joined) signature with a message that says how to re-sign', () => {
    const legacy = legacyDecisionText(base);
    const old = signAs(ana, legacy);
    // Without expiresAt (what an old client sends) and with one added to the same old signature.
    expect(checkSignature({ registry, signer: 'ana', signature: old, message: undefined, now: NOW, legacy })).toEqual({
      ok: false,
      reason: expect.stringMatching(/^old-format signature \(v1, newline-joined text, no expiry\) refused: .*Re-signing/),
    });
    expect(check({ signature: old, legacy })).toEqual({ ok: false, reason: expect.stringMatching(/^old-format signature/) });
  });
});

describe('decision-signature.ts as workflow code', () => {
  // It is bundled into the workflow, so everything it loads at run time, directly or through our
  // own files, must be pure: @noble/* or zod, never a Node built-in.
  const runtimeImports = (file: string): string[] =>
    [...readFileSync(file, 'utf8').matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!);

  it('imports only @noble/*, zod and pure files of its own at run time', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      expect(code, `${file} uses a global the workflow sandbox may lack`).not.toMatch(/\b(Buffer|atob|btoa|process|require)\b/);
      for (const spec of runtimeImports(file)) {
        if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), `${spec}.ts`));
        else expect(spec, `${file} imports ${spec}`).toMatch(/^(@noble\/|zod$)/);
      }
    };
    visit(path.join(__dirname, '../../../../src/core/approvals/signatures/decision-signature.ts'));
    expect([...seen].map((f) => path.basename(f))).toEqual(['decision-signature.ts', 'signed-message.ts', 'canonical-json.ts', 'strict-base64.ts']);
  });
});
