import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AesGcmPayloadCodec } from '../../../src/runtime/codec/aes-gcm-codec';
import { CodecServerConfigError } from '../../../src/runtime/codec/codec-errors';
import { startCodecServer, type CodecServer } from '../../../src/runtime/codec/codec-server';
import { encryptionKeysFromEnv } from '../../../src/runtime/codec/encryption-keys';

const UI = 'http://localhost:8233';
const TOKEN = 'let-me-in-0123456789';
const codec = new AesGcmPayloadCodec(encryptionKeysFromEnv({ AGENT_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` })!);
const jsonPayload = (value: unknown) => {
  const p = defaultPayloadConverter.toPayload(value)!;
  return { metadata: Object.fromEntries(Object.entries(p.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])), data: Buffer.from(p.data!).toString('base64') };
};
const bearer = { authorization: `Bearer ${TOKEN}` };
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-namespace': 'default', ...headers }, body: JSON.stringify(body) });

/** fetch will not send a Host of our choosing; node:http will, as a DNS-rebound browser page does. */
function postWithHost(server: CodecServer, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: '/decode', method: 'POST', headers: { host, 'content-type': 'application/json', ...bearer } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ payloads: [] }));
  });
}

describe('codec server', () => {
  let server: CodecServer;
  beforeAll(async () => {
    server = await startCodecServer({ codec, port: 0, origins: [UI], token: TOKEN });
  });
  afterAll(async () => {
    await server.close();
  });

  it('encodes and decodes payloads in the Web UI codec protocol, with the token as a header or as the path', async () => {
    const encoded = (await (await post(`${server.url}/encode`, { payloads: [jsonPayload({ secret: 'tool output' })] }, bearer)).json()) as {
      payloads: { metadata: Record<string, string>; data: string }[];
    };
    expect(Buffer.from(encoded.payloads[0]!.metadata.encoding!, 'base64').toString()).toBe('binary/encrypted');
    expect(Buffer.from(encoded.payloads[0]!.data, 'base64').toString()).not.toContain('tool output');
    for (const [url, headers] of [[`${server.url}/decode`, bearer], [`${server.uiEndpoint}/decode`, {}]] as const) {
      const decoded = (await (await post(url, encoded, headers)).json()) as { payloads: { data: string }[] };
      expect(JSON.parse(Buffer.from(decoded.payloads[0]!.data, 'base64').toString())).toEqual({ secret: 'tool output' });
    }
  });

  it('refuses calls without the token or with a wrong one, in the header or the path (the preflight still passes)', async () => {
    const body = { payloads: [jsonPayload('x')] };
    expect((await post(`${server.url}/decode`, body)).status).toBe(401);
    expect((await post(`${server.url}/decode`, body, { authorization: 'Bearer wrong-wrong-wrong-wrong' })).status).toBe(401);
    expect((await post(`${server.url}/wrong-wrong-wrong-wrong/decode`, body)).status).toBe(401);
    expect((await post(`${server.url}/encode`, body, bearer)).status).toBe(200);
    const preflight = await fetch(`${server.url}/decode`, { method: 'OPTIONS', headers: { origin: UI, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
  });

  it('refuses a Host that is not a loopback name or its configured host (DNS rebinding), even with the token', async () => {
    expect(await postWithHost(server, `rebound.example:${server.port}`)).toBe(421);
    expect(await postWithHost(server, `127.0.0.1:${server.port + 1}`)).toBe(421);
    expect(await postWithHost(server, `localhost:${server.port}`)).toBe(200);
    expect(await postWithHost(server, `127.0.0.1:${server.port}`)).toBe(200);
  });

  it('answers CORS only for the UI origin, and refuses a call from any other origin outright', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/decode`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-namespace' } });
    const ui = await preflight(UI);
    expect(ui.headers.get('access-control-allow-origin')).toBe(UI);
    expect(ui.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-namespace');
    const foreign = await preflight('http://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const call = await post(`${server.url}/decode`, { payloads: [jsonPayload('x')] }, { ...bearer, origin: 'http://evil.example' });
    expect(call.status).toBe(403);
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('will not start without a token, or with a short one', async () => {
    await expect(startCodecServer({ codec, port: 0, origins: [UI], token: '' })).rejects.toBeInstanceOf(CodecServerConfigError);
    await expect(startCodecServer({ codec, port: 0, origins: [UI], token: 'short' })).rejects.toThrow(/at least 16 characters/);
  });

  it('says what is wrong with a malformed body or a payload it cannot open', async () => {
    expect((await post(`${server.url}/decode`, { nope: 1 }, bearer)).status).toBe(400);
    const foreign = new AesGcmPayloadCodec(encryptionKeysFromEnv({ AGENT_ENCRYPTION_KEY: `k9:${randomBytes(32).toString('base64')}` })!);
    const [sealed] = await foreign.encode([defaultPayloadConverter.toPayload('x')!]);
    const res = await post(
      `${server.url}/decode`,
      { payloads: [{ metadata: Object.fromEntries(Object.entries(sealed!.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])), data: Buffer.from(sealed!.data!).toString('base64') }] },
      bearer,
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toContain('"k9"');
  });
});
