// `npm start` with AGENT_ENCRYPTION_KEY: the codec server it launches for the Web UI requires a token
// (a fresh one, or AGENT_CODEC_TOKEN), and the endpoint it gives the UI carries it.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startEncryptionCodecServer } from '../../scripts/start-codec-server';
import type { CodecServer } from '../../src/runtime/codec/codec-server';

const KEY = `s1:${randomBytes(32).toString('base64')}`;
const decode = (url: string, origin?: string) =>
  fetch(`${url}/decode`, { method: 'POST', headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) }, body: '{"payloads":[]}' });

describe('the codec server npm start launches', () => {
  let server: CodecServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('generates a token, refuses calls without it, and gives the UI an endpoint that carries it', async () => {
    const said: string[] = [];
    server = await startEncryptionCodecServer({ AGENT_ENCRYPTION_KEY: KEY }, 8233, (line) => said.push(line));
    expect(server).toBeDefined();
    const token = new URL(server!.uiEndpoint).pathname.slice(1);
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(said.join('\n')).not.toContain(token);
    expect((await decode(server!.url)).status).toBe(401);
    expect((await decode(server!.uiEndpoint, 'http://localhost:8233')).status).toBe(200);
    expect((await decode(server!.uiEndpoint, 'http://localhost:9999')).status).toBe(403);
  });

  it('uses AGENT_CODEC_TOKEN when set, and starts nothing without a key', async () => {
    server = await startEncryptionCodecServer({ AGENT_ENCRYPTION_KEY: KEY, AGENT_CODEC_TOKEN: 'chosen-token-0123456789' }, 8233, () => undefined);
    expect(server!.uiEndpoint).toBe(`${server!.url}/chosen-token-0123456789`);
    expect(await startEncryptionCodecServer({}, 8233, () => undefined)).toBeUndefined();
  });
});
