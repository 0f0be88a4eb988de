import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AesGcmPayloadCodec } from '../../src/codec/aes-gcm-codec';
import { startCodecServer, type CodecServer } from '../../src/codec/codec-server';
import { encryptionKeysFromEnv } from '../../src/codec/encryption-keys';

const UI = 'http://localhost:8233';
const codec = new AesGcmPayloadCodec(encryptionKeysFromEnv({ AGENT_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` })!);
const jsonPayload = (value: unknown) => {
  const p = defaultPayloadConverter.toPayload(value)!;
  return { metadata: Object.fromEntries(Object.entries(p.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])), data: Buffer.from(p.data!).toString('base64') };
};
const post = (server: CodecServer, op: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/${op}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-namespace': 'default', ...headers }, body: JSON.stringify(body) });

describe('codec server', () => {
  let open: CodecServer;
  let guarded: CodecServer;
  beforeAll(async () => {
    [open, guarded] = await Promise.all([
      startCodecServer({ codec, port: 0, origins: [UI] }),
      startCodecServer({ codec, port: 0, origins: [UI], token: 'let-me-in' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([open.close(), guarded.close()]);
  });

  it('encodes and decodes payloads in the Web UI codec protocol', async () => {
    const encoded = (await (await post(open, 'encode', { payloads: [jsonPayload({ secret: 'tool output' })] })).json()) as { payloads: { metadata: Record<string, string>; data: string }[] };
    expect(Buffer.from(encoded.payloads[0]!.metadata.encoding!, 'base64').toString()).toBe('binary/encrypted');
    expect(Buffer.from(encoded.payloads[0]!.data, 'base64').toString()).not.toContain('tool output');
    const decoded = (await (await post(open, 'decode', encoded)).json()) as { payloads: { data: string }[] };
    expect(JSON.parse(Buffer.from(decoded.payloads[0]!.data, 'base64').toString())).toEqual({ secret: 'tool output' });
  });

  it('answers the preflight of the UI origin, and not of another origin', async () => {
    const preflight = (origin: string) =>
      fetch(`${open.url}/decode`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-namespace' } });
    const ui = await preflight(UI);
    expect(ui.headers.get('access-control-allow-origin')).toBe(UI);
    expect(ui.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-namespace');
    expect((await preflight('http://evil.example')).headers.get('access-control-allow-origin')).not.toBe('http://evil.example');
  });

  it('with a token, refuses calls without it (the preflight still passes)', async () => {
    const body = { payloads: [jsonPayload('x')] };
    expect((await post(guarded, 'encode', body)).status).toBe(401);
    expect((await post(guarded, 'encode', body, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(guarded, 'encode', body, { authorization: 'Bearer let-me-in' })).status).toBe(200);
    const preflight = await fetch(`${guarded.url}/decode`, { method: 'OPTIONS', headers: { origin: UI, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
  });

  it('says what is wrong with a malformed body or a payload it cannot open', async () => {
    expect((await post(open, 'decode', { nope: 1 })).status).toBe(400);
    const foreign = new AesGcmPayloadCodec(encryptionKeysFromEnv({ AGENT_ENCRYPTION_KEY: `k9:${randomBytes(32).toString('base64')}` })!);
    const [sealed] = await foreign.encode([defaultPayloadConverter.toPayload('x')!]);
    const res = await post(open, 'decode', { payloads: [{ metadata: Object.fromEntries(Object.entries(sealed!.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])), data: Buffer.from(sealed!.data!).toString('base64') }] });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toContain('"k9"');
  });
});
