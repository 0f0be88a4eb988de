// Approvers' Ed25519 key pairs on the client side. The private key stays in the person's config
// folder (one PKCS8 PEM file per approver name, readable only by them); the public key goes into the
// worker's AGENT_APPROVERS_FILE, against which the workflow checks each signed decision.
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApproverKeyError } from './errors';

export const KEYS_DIR_ENV = 'AGENT_KEYS_DIR';

/**
 * Names become file names, so only letters, digits, `.`, `_`, `-` and `@` are allowed. The first
 * character must be a letter or digit, so a name can never be a hidden file or look like a flag.
 * 200 characters is the longest approver name a decision accepts.
 */
export const APPROVER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,199}$/;

/** `$AGENT_KEYS_DIR`, else `$XDG_CONFIG_HOME/durable-agent/keys`, else `~/.config/durable-agent/keys`. */
export function approverKeysDir(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[KEYS_DIR_ENV];
  if (configured) return configured;
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'durable-agent', 'keys');
}

export interface CreatedApproverKey {
  name: string;
  privateKeyPath: string;
  publicKeyPem: string;
  /** The entry to merge into the worker's AGENT_APPROVERS_FILE. */
  registryEntry: Record<string, string>;
}

/** Makes a key pair for `name` and writes the private key (mode 0600) to `<dir>/<name>.pem`. */
export function createApproverKey(name: string, options: { dir?: string; force?: boolean } = {}): CreatedApproverKey {
  if (!APPROVER_NAME.test(name)) {
    throw new ApproverKeyError(`"${name}" cannot name an approver key: use letters, digits, ".", "_", "-" or "@", starting with a letter or digit.`);
  }
  const dir = options.dir ?? approverKeysDir();
  // mode is filtered by the umask and applies only to folders this call creates; chmod the leaf we
  // made so it is 0700 whatever the umask, but never change a folder the person already had.
  if (mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dir, 0o700);
  const privateKeyPath = path.join(dir, `${name}.pem`);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  if (options.force) rmSync(privateKeyPath, { force: true });
  try {
    // 'wx' fails if anything (even a symlink) is already there, so an existing key is never replaced silently.
    writeFileSync(privateKeyPath, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new ApproverKeyError(
      `${privateKeyPath} already exists. Replacing it (--force) makes its registry entry useless until the new public key is registered.`,
    );
  }
  const publicKeyPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
  return { name, privateKeyPath, publicKeyPem, registryEntry: { [name]: publicKeyPem } };
}

/** Whether `name` has a private key here, i.e. whether what they send will be signed. */
export function hasApproverKey(name: string, options: { dir?: string } = {}): boolean {
  return APPROVER_NAME.test(name) && existsSync(path.join(options.dir ?? approverKeysDir(), `${name}.pem`));
}

/**
 * Signs `text` (UTF-8) with the key of `name` and returns the base64 signature, or undefined when
 * there is no key for that name (including names that could not have one), so a caller can fall
 * back to an unsigned decision where the worker does not require signatures.
 */
export function signWithApproverKey(name: string, text: string, options: { dir?: string } = {}): string | undefined {
  if (!APPROVER_NAME.test(name)) return undefined;
  const keyPath = path.join(options.dir ?? approverKeysDir(), `${name}.pem`);
  let pem: string;
  try {
    pem = readFileSync(keyPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ApproverKeyError(`Cannot read the key of ${name} at ${keyPath}: ${(error as Error).message}`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    throw new ApproverKeyError(`${keyPath} is not a PEM private key (${(error as Error).message}): make a new one with \`agentctl keys create ${name} --force\`.`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new ApproverKeyError(`${keyPath} is a ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519: make one with \`agentctl keys create ${name} --force\`.`);
  }
  // Ed25519 hashes internally, so the digest argument is null.
  return sign(null, Buffer.from(text, 'utf8'), key).toString('base64');
}
