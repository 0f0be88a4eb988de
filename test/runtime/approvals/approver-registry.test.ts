import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { approverRegistryFromEnv, loadApproverRegistry } from '../../../src/runtime/approvals/approver-registry';
import { ApproverRegistryError } from '../../../src/contract/errors';

const dir = mkdtempSync(path.join(tmpdir(), 'approvers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** Writes `content` (JSON unless a string) to a fresh file and returns its path. */
function registryFile(content: unknown): string {
  const file = path.join(dir, `approvers-${++files}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const ed25519Pair = () => generateKeyPairSync('ed25519');
const publicPem = (key = ed25519Pair().publicKey) => key.export({ format: 'pem', type: 'spki' }).toString();
const rawHex = (key: ReturnType<typeof ed25519Pair>['publicKey']) => key.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');

describe('loadApproverRegistry', () => {
  it('maps each approver to the raw 32-byte Ed25519 public key as hex', () => {
    const ana = ed25519Pair();
    const bo = ed25519Pair();
    const registry = loadApproverRegistry(registryFile({ ana: publicPem(ana.publicKey), 'bo@example.com': publicPem(bo.publicKey) }));
    expect(registry).toEqual({ ana: rawHex(ana.publicKey), 'bo@example.com': rawHex(bo.publicKey) });
    expect(registry.ana).toMatch(/^[0-9a-f]{64}$/);
  });

  const rsaPem = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }).toString();
  const privatePem = ed25519Pair().privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const brokenPem = '-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n';

  it.each([
    ['a missing file', () => path.join(dir, 'absent.json'), /absent\.json \(AGENT_APPROVERS_FILE\) does not exist: create it/],
    ['a file that is not JSON', () => registryFile('{ ana: oops'), /is not valid JSON/],
    ['a JSON array', () => registryFile([publicPem()]), /must be a JSON object mapping approver names to public keys/],
    ['JSON null', () => registryFile('null'), /must be a JSON object/],
    ['an empty object', () => registryFile({}), /lists no approvers/],
    ['an empty name', () => registryFile({ '': publicPem() }), /entry with an empty name/],
    ['a value that is not a string', () => registryFile({ ana: 42 }), /entry "ana" must be a PEM string starting with "-----BEGIN PUBLIC KEY-----"/],
    ['a value that is not PEM', () => registryFile({ ana: 'ssh-ed25519 AAAAC3Nza' }), /entry "ana" must be a PEM string/],
    ['a private key', () => registryFile({ ana: privatePem }), /entry "ana" is a PRIVATE key: remove it at once/],
    ['a PEM block that is not a key', () => registryFile({ ana: brokenPem }), /entry "ana" is not a readable PEM public key/],
    ['an RSA key', () => registryFile({ ana: publicPem(), bo: rsaPem }), /entry "bo" is a rsa key, not Ed25519/],
  ])('refuses %s with an ApproverRegistryError that names the file and the problem', (_case, makeFile, message) => {
    const file = makeFile();
    let thrown: unknown;
    try {
      loadApproverRegistry(file);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApproverRegistryError);
    expect((thrown as Error).message).toContain(path.resolve(file));
    expect((thrown as Error).message).toMatch(message);
  });
});

describe('approverRegistryFromEnv', () => {
  it('is undefined when AGENT_APPROVERS_FILE is unset or empty, so signatures are not required', () => {
    expect(approverRegistryFromEnv({})).toBeUndefined();
    expect(approverRegistryFromEnv({ AGENT_APPROVERS_FILE: '' })).toBeUndefined();
  });

  it('loads the file it names, and fails loudly when that file is missing', () => {
    const key = ed25519Pair().publicKey;
    expect(approverRegistryFromEnv({ AGENT_APPROVERS_FILE: registryFile({ ana: publicPem(key) }) })).toEqual({ ana: rawHex(key) });
    expect(() => approverRegistryFromEnv({ AGENT_APPROVERS_FILE: path.join(dir, 'nope.json') })).toThrow(ApproverRegistryError);
  });
});
