import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkDecisionSignature,
  decisionSigningText,
  verifyDecisionSignature,
} from '../../../src/approvals/signatures/decision-signature';
import { decodeStrictBase64 } from '../../../src/approvals/signatures/strict-base64';

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

const base = { workflowId: 'run-1', callId: 'call-7', decision: 'approve', approver: 'ana' };

describe('decisionSigningText', () => {
  it('is exactly the contract text when there is no scope', () => {
    expect(decisionSigningText(base)).toBe('run-1\ncall-7\napprove\nana');
  });

  it('appends the scope as a fifth line when there is one', () => {
    expect(decisionSigningText({ ...base, decision: 'approve_always', scope: 'prefix:npm test' })).toBe('run-1\ncall-7\napprove_always\nana\nprefix:npm test');
  });
});

describe('verifyDecisionSignature', () => {
  const text = decisionSigningText(base);
  const signatureBase64 = signAs(ana, text);

  it('accepts a signature Node made over the contract text', () => {
    expect(verifyDecisionSignature({ publicKeyHex: ana.publicKeyHex, text, signatureBase64 })).toBe(true);
  });

  it.each([
    ['workflowId', { workflowId: 'run-2' }],
    ['callId', { callId: 'call-8' }],
    ['decision', { decision: 'approve_always' }],
    ['approver', { approver: 'bo' }],
  ])('refuses the signature once %s changes', (_field, change) => {
    const changed = decisionSigningText({ ...base, ...change });
    expect(verifyDecisionSignature({ publicKeyHex: ana.publicKeyHex, text: changed, signatureBase64 })).toBe(false);
  });

  it("refuses another approver's key", () => {
    expect(verifyDecisionSignature({ publicKeyHex: bo.publicKeyHex, text, signatureBase64 })).toBe(false);
  });

  it('covers the scope line: a signature for one scope does not pass for another or for none', () => {
    const scoped = { ...base, decision: 'approve_always', scope: 'prefix:npm test' };
    const signature = signAs(ana, decisionSigningText(scoped));
    const verify = (t: string) => verifyDecisionSignature({ publicKeyHex: ana.publicKeyHex, text: t, signatureBase64: signature });
    expect(verify(decisionSigningText(scoped))).toBe(true);
    expect(verify(decisionSigningText({ ...scoped, scope: 'prefix:npm' }))).toBe(false);
    expect(verify(decisionSigningText({ ...scoped, scope: undefined }))).toBe(false);
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

describe('checkDecisionSignature', () => {
  const registry = { ana: ana.publicKeyHex, bo: bo.publicKeyHex };
  const signed = (approver: string, key = ana) => ({
    callId: base.callId,
    decision: 'approve',
    approver,
    signature: signAs(key, decisionSigningText({ ...base, approver })),
  });

  it('lets every decision through when no registry is configured', () => {
    expect(checkDecisionSignature({ registry: undefined, workflowId: 'run-1', decision: { callId: 'c', decision: 'approve' } })).toEqual({ ok: true });
  });

  it('accepts a decision signed by the registered key of its approver', () => {
    expect(checkDecisionSignature({ registry, workflowId: 'run-1', decision: signed('ana') })).toEqual({ ok: true });
  });

  it('refuses an unsigned decision and says how to sign one', () => {
    const check = checkDecisionSignature({ registry, workflowId: 'run-1', decision: { callId: 'call-7', decision: 'approve', approver: 'ana' } });
    expect(check).toEqual({
      ok: false,
      reason: expect.stringMatching(/^unsigned decision: this worker requires signed decisions \(AGENT_APPROVERS_FILE is set\); sign it with `agentctl approve` using a key from `agentctl keys create`/),
    });
  });

  it('refuses an approver the registry does not know, including names found on Object.prototype', () => {
    for (const name of ['carl', 'constructor', '__proto__']) {
      const check = checkDecisionSignature({ registry, workflowId: 'run-1', decision: signed(name) });
      expect(check).toEqual({ ok: false, reason: expect.stringMatching(new RegExp(`^unknown approver ${name}: not in the approver registry`)) });
    }
  });

  it("refuses a signature made with someone else's key, and one sent to another run", () => {
    const forged = checkDecisionSignature({ registry, workflowId: 'run-1', decision: signed('ana', bo) });
    expect(forged).toEqual({ ok: false, reason: expect.stringMatching(/^bad signature for approver ana/) });
    const replayed = checkDecisionSignature({ registry, workflowId: 'run-2', decision: signed('ana') });
    expect(replayed).toEqual({ ok: false, reason: expect.stringMatching(/^bad signature for approver ana/) });
  });

  it('refuses a signed decision that names no approver', () => {
    const { approver: _approver, ...anonymous } = signed('ana');
    expect(checkDecisionSignature({ registry, workflowId: 'run-1', decision: anonymous })).toEqual({ ok: false, reason: expect.stringMatching(/names no approver/) });
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
    visit(path.join(__dirname, '../../../src/approvals/signatures/decision-signature.ts'));
    expect([...seen].map((f) => path.basename(f))).toEqual(['decision-signature.ts', 'strict-base64.ts']);
  });
});
