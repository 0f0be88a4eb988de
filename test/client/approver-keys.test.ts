import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadApproverRegistry } from '../../src/runtime/approvals/approver-registry';
import { verifyDecisionSignature } from '../../src/core/approvals/signatures/decision-signature';
import { approverKeysDir, createApproverKey, signWithApproverKey } from '../../src/client/approver-keys';
import { ApproverKeyError } from '../../src/client/errors';

const root = mkdtempSync(path.join(tmpdir(), 'approver-keys-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => path.join(root, `keys-${++dirs}`, 'nested');
const modeOf = (p: string) => statSync(p).mode & 0o777;

describe('approverKeysDir', () => {
  it('prefers AGENT_KEYS_DIR, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(approverKeysDir({ AGENT_KEYS_DIR: '/k', XDG_CONFIG_HOME: '/x' })).toBe('/k');
    expect(approverKeysDir({ XDG_CONFIG_HOME: '/x' })).toBe(path.join('/x', 'durable-agent', 'keys'));
    expect(approverKeysDir({})).toMatch(/\.config[/\\]durable-agent[/\\]keys$/);
  });
});

describe('createApproverKey', () => {
  it('writes the private key with mode 0600 into a folder with mode 0700', () => {
    const dir = freshDir();
    const key = createApproverKey('ana', { dir });
    expect(key.privateKeyPath).toBe(path.join(dir, 'ana.pem'));
    expect(readFileSync(key.privateKeyPath, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(modeOf(key.privateKeyPath)).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
    expect(key.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
    expect(key.registryEntry).toEqual({ ana: key.publicKeyPem });
  });

  it('refuses to overwrite an existing key unless forced', () => {
    const dir = freshDir();
    const first = createApproverKey('ana', { dir });
    expect(() => createApproverKey('ana', { dir })).toThrow(ApproverKeyError);
    expect(() => createApproverKey('ana', { dir })).toThrow(/already exists.*--force/);
    const second = createApproverKey('ana', { dir, force: true });
    expect(second.publicKeyPem).not.toBe(first.publicKeyPem);
    expect(modeOf(second.privateKeyPath)).toBe(0o600);
  });

  it.each(['', '../ana', 'a/b', '.hidden', '-flag', 'ana smith', 'x'.repeat(201)])('refuses the name %j', (name) => {
    expect(() => createApproverKey(name, { dir: freshDir() })).toThrow(ApproverKeyError);
  });

  it('accepts names made of letters, digits, ".", "_", "-" and "@"', () => {
    expect(createApproverKey('ana.b_c-d@example.com', { dir: freshDir() }).name).toBe('ana.b_c-d@example.com');
  });
});

describe('signWithApproverKey', () => {
  it('signs so that the workflow verifier accepts it under the key read back through the registry', () => {
    const dir = freshDir();
    const key = createApproverKey('ana', { dir });
    const registryFile = path.join(root, `registry-${dirs}.json`);
    writeFileSync(registryFile, JSON.stringify(key.registryEntry));
    const registry = loadApproverRegistry(registryFile);

    const text = '{"kind":"decision","v":2}';
    const signatureBase64 = signWithApproverKey('ana', text, { dir })!;
    expect(verifyDecisionSignature({ publicKeyHex: registry.ana!, text, signatureBase64 })).toBe(true);
    expect(verifyDecisionSignature({ publicKeyHex: registry.ana!, text: `${text}!`, signatureBase64 })).toBe(false);
  });

  it('returns undefined when the approver has no key here, or a name that could not have one', () => {
    const dir = freshDir();
    expect(signWithApproverKey('bo', 'text', { dir })).toBeUndefined();
    expect(signWithApproverKey('../etc/passwd', 'text', { dir })).toBeUndefined();
  });

  it('says so when the key file is not a usable private key', () => {
    const dir = freshDir();
    createApproverKey('ana', { dir });
    writeFileSync(path.join(dir, 'ana.pem'), 'garbage');
    expect(() => signWithApproverKey('ana', 'text', { dir })).toThrow(/is not a PEM private key.*keys create ana --force/);
  });
});
