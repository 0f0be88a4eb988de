// `npm start` with AGENT_ENCRYPTION_KEY set: payloads in the embedded server are sealed, so the Web UI
// gets a codec server (the same one `agentctl codec-server` runs) to show them decoded. It listens on
// loopback with a fresh token (AGENT_CODEC_TOKEN when set); the dev server's UI cannot send a header,
// so its endpoint carries the token as its path (`http://127.0.0.1:<port>/<token>`, docs/guides/deploy.md).
import { AesGcmPayloadCodec } from '../src/runtime/codec/aes-gcm-codec';
import { newCodecToken, startCodecServer, type CodecServer } from '../src/runtime/codec/codec-server';
import { encryptionKeysFromEnv } from '../src/runtime/codec/encryption-keys';

/** Starts the codec server on AGENT_CODEC_PORT (default: a free port) when a key is set; undefined otherwise. */
export async function startEncryptionCodecServer(env: NodeJS.ProcessEnv, uiPort: number, say: (line: string) => void): Promise<CodecServer | undefined> {
  const keys = encryptionKeysFromEnv(env);
  if (!keys) return undefined;
  const server = await startCodecServer({
    codec: new AesGcmPayloadCodec(keys),
    port: Number(env.AGENT_CODEC_PORT ?? 0),
    origins: [`http://localhost:${uiPort}`, `http://127.0.0.1:${uiPort}`],
    token: env.AGENT_CODEC_TOKEN || newCodecToken(),
  });
  say(`Payloads are encrypted (key "${keys.current.id}"); the Web UI decodes them through the codec server on ${server.url} (token required; the UI's endpoint carries it).`);
  return server;
}
