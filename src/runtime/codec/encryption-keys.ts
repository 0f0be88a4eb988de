import { z } from 'zod';
import { DurableAgentError } from '../../contract/durable-agent-error';

/**
 * The keys payloads are encrypted with. `AGENT_ENCRYPTION_KEY` is `<key id>:<base64 of 32 bytes>`
 * (make one with `echo "k1:$(openssl rand -base64 32)"`); the id is
 * stored beside every encrypted payload, so after a rotation the old key, listed in
 * `AGENT_ENCRYPTION_OLD_KEYS` (comma-separated, same form), still opens what it sealed.
 */
export interface EncryptionKeys {
  /** The key new payloads are sealed with. */
  current: { id: string; key: Buffer };
  /** Every key that may open a payload, by id (the current one included). */
  byId: ReadonlyMap<string, Buffer>;
}

/** AGENT_ENCRYPTION_KEY or AGENT_ENCRYPTION_OLD_KEYS is malformed; the message says which and how. */
export class EncryptionKeyError extends DurableAgentError {
  override readonly name = 'EncryptionKeyError';
  readonly code = 'ENCRYPTION_KEY_INVALID';
  readonly retryable = false;
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

const KeySpecSchema = z
  .string()
  .trim()
  .transform((spec, ctx) => {
    const at = spec.indexOf(':');
    const id = spec.slice(0, at);
    const encoded = spec.slice(at + 1);
    if (at <= 0 || !KEY_ID.test(id)) {
      ctx.addIssue({ code: 'custom', message: 'must start with a key id (letters, digits, ".", "_", "-") and a colon, as in "k1:<base64>"' });
      return z.NEVER;
    }
    const key = Buffer.from(encoded, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || key.length !== 32) {
      ctx.addIssue({ code: 'custom', message: `key "${id}" must be 32 bytes in base64 (44 characters), not ${key.length} bytes` });
      return z.NEVER;
    }
    return { id, key };
  });

function parseKey(variable: string, spec: string): { id: string; key: Buffer } {
  const parsed = KeySpecSchema.safeParse(spec);
  if (!parsed.success) throw new EncryptionKeyError(`${variable} ${parsed.error.issues[0]?.message ?? 'is malformed'}.`);
  return parsed.data;
}

/** The keys from the environment, or undefined when AGENT_ENCRYPTION_KEY is not set (payloads stay plain). */
export function encryptionKeysFromEnv(env: NodeJS.ProcessEnv): EncryptionKeys | undefined {
  const spec = env.AGENT_ENCRYPTION_KEY?.trim();
  const old = (env.AGENT_ENCRYPTION_OLD_KEYS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!spec) {
    if (old.length > 0) throw new EncryptionKeyError('AGENT_ENCRYPTION_OLD_KEYS is set but AGENT_ENCRYPTION_KEY is not: set the current key too.');
    return undefined;
  }
  const current = parseKey('AGENT_ENCRYPTION_KEY', spec);
  const byId = new Map<string, Buffer>([[current.id, current.key]]);
  for (const entry of old) {
    const { id, key } = parseKey('AGENT_ENCRYPTION_OLD_KEYS', entry);
    const known = byId.get(id);
    if (known && !known.equals(key)) throw new EncryptionKeyError(`Key id "${id}" names two different keys; every key needs its own id.`);
    byId.set(id, key);
  }
  return { current, byId };
}
