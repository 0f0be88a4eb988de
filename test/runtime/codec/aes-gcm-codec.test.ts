import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { AesGcmPayloadCodec, ENCRYPTED_ENCODING, KEY_ID_METADATA, PayloadDecryptionError, UnknownEncryptionKeyError } from '../../../src/runtime/codec/aes-gcm-codec';
import { EncryptionKeyError, encryptionKeysFromEnv } from '../../../src/runtime/codec/encryption-keys';

const keySpec = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const codecFor = (env: NodeJS.ProcessEnv) => new AesGcmPayloadCodec(encryptionKeysFromEnv(env)!);
const payload = (value: unknown) => defaultPayloadConverter.toPayload(value)!;
const utf8 = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('utf8');

describe('encryptionKeysFromEnv', () => {
  it('is off without AGENT_ENCRYPTION_KEY', () => {
    expect(encryptionKeysFromEnv({})).toBeUndefined();
  });

  it('reads the current key and the old ones, by id', () => {
    const [k2, k1] = [keySpec('k2'), keySpec('k1')];
    const keys = encryptionKeysFromEnv({ AGENT_ENCRYPTION_KEY: k2, AGENT_ENCRYPTION_OLD_KEYS: ` ${k1} ,` })!;
    expect(keys.current.id).toBe('k2');
    expect([...keys.byId.keys()].sort()).toEqual(['k1', 'k2']);
  });

  it.each([
    ['no key id', randomBytes(32).toString('base64'), /key id/],
    ['a short key', `k1:${randomBytes(16).toString('base64')}`, /32 bytes.*not 16/],
    ['not base64', 'k1:not*base64', /32 bytes/],
  ])('refuses %s, naming the variable', (_what, spec, message) => {
    expect(() => encryptionKeysFromEnv({ AGENT_ENCRYPTION_KEY: spec })).toThrow(EncryptionKeyError);
    expect(() => encryptionKeysFromEnv({ AGENT_ENCRYPTION_KEY: spec })).toThrow(message);
  });

  it('refuses old keys without a current one, and one id for two keys', () => {
    expect(() => encryptionKeysFromEnv({ AGENT_ENCRYPTION_OLD_KEYS: keySpec('k1') })).toThrow(/AGENT_ENCRYPTION_KEY is not/);
    expect(() => encryptionKeysFromEnv({ AGENT_ENCRYPTION_KEY: keySpec('k1'), AGENT_ENCRYPTION_OLD_KEYS: keySpec('k1') })).toThrow(/two different keys/);
  });
});

describe('AesGcmPayloadCodec', () => {
  it('seals a payload so neither its data nor its encoding show, and opens it again', async () => {
    const codec = codecFor({ AGENT_ENCRYPTION_KEY: keySpec('k1') });
    const [sealed] = await codec.encode([payload({ output: 'the secret tool output' })]);
    expect(utf8(sealed!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(utf8(sealed!.metadata![KEY_ID_METADATA])).toBe('k1');
    expect(utf8(sealed!.data)).not.toContain('secret');
    expect(utf8(sealed!.data)).not.toContain('json/plain');
    const [opened] = await codec.decode([sealed!]);
    expect(defaultPayloadConverter.fromPayload(opened!)).toEqual({ output: 'the secret tool output' });
  });

  it('uses a fresh IV each time: the same value seals to different bytes', async () => {
    const codec = codecFor({ AGENT_ENCRYPTION_KEY: keySpec('k1') });
    const [a, b] = await codec.encode([payload('same'), payload('same')]);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
  });

  it('opens what an old key sealed after a rotation, and says which key is missing otherwise', async () => {
    const k1 = keySpec('k1');
    const [old] = await codecFor({ AGENT_ENCRYPTION_KEY: k1 }).encode([payload('before the rotation')]);
    const rotated = codecFor({ AGENT_ENCRYPTION_KEY: keySpec('k2'), AGENT_ENCRYPTION_OLD_KEYS: k1 });
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([old!]))[0]!)).toBe('before the rotation');
    const forgot = codecFor({ AGENT_ENCRYPTION_KEY: keySpec('k2') });
    await expect(forgot.decode([old!])).rejects.toThrow(UnknownEncryptionKeyError);
    await expect(forgot.decode([old!])).rejects.toThrow(/"k1".*AGENT_ENCRYPTION_OLD_KEYS/);
  });

  it('refuses altered bytes and a key id swapped onto another key', async () => {
    const codec = codecFor({ AGENT_ENCRYPTION_KEY: keySpec('k1') });
    const [sealed] = await codec.encode([payload('untouched')]);
    const data = Buffer.from(sealed!.data!);
    data[data.length - 20]! ^= 1;
    await expect(codec.decode([{ ...sealed!, data }])).rejects.toThrow(PayloadDecryptionError);
    const impostor = codecFor({ AGENT_ENCRYPTION_KEY: keySpec('k1') });
    await expect(impostor.decode([sealed!])).rejects.toThrow(PayloadDecryptionError);
  });

  it('passes payloads written before encryption was on through unchanged', async () => {
    const codec = codecFor({ AGENT_ENCRYPTION_KEY: keySpec('k1') });
    const plain = payload({ older: true });
    expect(await codec.decode([plain])).toEqual([plain]);
  });
});
