import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { EncryptionKeys } from './encryption-keys';
import { DurableAgentError } from '../../contract/durable-agent-error';

/** Payload metadata of a sealed payload. The key id is plaintext on purpose: it picks the key to open it. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
export const CIPHER_METADATA = 'encryption-cipher';
const CIPHER = 'AES-256-GCM';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed payload names a key this process does not have; add it to AGENT_ENCRYPTION_OLD_KEYS. */
export class UnknownEncryptionKeyError extends DurableAgentError {
  override readonly name = 'UnknownEncryptionKeyError';
  readonly code = 'ENCRYPTION_KEY_UNKNOWN';
  readonly retryable = false;
}

/** A sealed payload did not open: wrong key under a reused id, or the bytes were altered. */
export class PayloadDecryptionError extends DurableAgentError {
  override readonly name = 'PayloadDecryptionError';
  readonly code = 'PAYLOAD_DECRYPTION_FAILED';
  readonly retryable = false;
}

const text = (value: string) => new TextEncoder().encode(value);
const str = (bytes: Uint8Array | null | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

/**
 * AES-256-GCM over the whole serialized payload (metadata included, so even the payload's encoding
 * is hidden). Each payload gets a fresh random 96-bit IV; the key id is bound in as associated data,
 * so a payload cannot be passed off as sealed by another key. Payloads that are not sealed (written
 * before encryption was turned on) pass through decode unchanged, so turning it on breaks no run.
 */
export class AesGcmPayloadCodec implements PayloadCodec {
  constructor(private readonly keys: EncryptionKeys) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const { id, key } = this.keys.current;
    return payloads.map((payload) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(id));
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: { [METADATA_ENCODING_KEY]: text(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: text(id), [CIPHER_METADATA]: text(CIPHER) },
        data: sealed,
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (str(payload.metadata?.[METADATA_ENCODING_KEY]) !== ENCRYPTED_ENCODING) return payload;
      const id = str(payload.metadata?.[KEY_ID_METADATA]) ?? '';
      const key = this.keys.byId.get(id);
      if (!key) throw new UnknownEncryptionKeyError(`A payload is sealed with key "${id}", which is not in AGENT_ENCRYPTION_KEY or AGENT_ENCRYPTION_OLD_KEYS.`);
      const data = Buffer.from(payload.data ?? new Uint8Array());
      if (data.length < IV_BYTES + TAG_BYTES) throw new PayloadDecryptionError(`A payload sealed with key "${id}" is truncated.`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(id));
        decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
        const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
        return temporal.api.common.v1.Payload.decode(plain);
      } catch (error) {
        throw new PayloadDecryptionError(`A payload sealed with key "${id}" did not decrypt (${(error as Error).message}): wrong key for that id, or altered data.`);
      }
    });
  }
}
