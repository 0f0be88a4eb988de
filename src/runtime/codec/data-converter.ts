import type { DataConverter } from '@temporalio/common';
import { AesGcmPayloadCodec } from './aes-gcm-codec';
import { encryptionKeysFromEnv } from './encryption-keys';

/**
 * The data converter every client and worker of this project uses: payloads sealed with AES-256-GCM
 * when AGENT_ENCRYPTION_KEY is set, plain JSON otherwise. Codecs run outside the workflow sandbox,
 * so the workflow code and its bundle are the same either way.
 */
export function dataConverterFromEnv(env: NodeJS.ProcessEnv): DataConverter {
  const keys = encryptionKeysFromEnv(env);
  return keys ? { payloadCodecs: [new AesGcmPayloadCodec(keys)] } : {};
}
