// Reads the approver registry (AGENT_APPROVERS_FILE) on the Node side: a JSON object mapping each
// approver name to an Ed25519 public key in PEM (SPKI) form. The result is plain data (name to raw
// 32-byte key as hex) so it can be handed to workflow code, which checks signatures without Node
// crypto (see decision-signature.ts).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ApproverRegistryError } from '../../contract/errors';

export const APPROVERS_FILE_ENV = 'AGENT_APPROVERS_FILE';

const EXAMPLE = '{ "ana": "-----BEGIN PUBLIC KEY-----\\n...\\n-----END PUBLIC KEY-----\\n" }';
const CREATE_HINT = 'the entry `agentctl keys create <name>` prints';
const RAW_KEY_BYTES = 32;

/** Name to raw Ed25519 public key as lowercase hex, read from `file`; throws ApproverRegistryError. */
export function loadApproverRegistry(file: string): Record<string, string> {
  const where = `Approver registry ${path.resolve(file)} (${APPROVERS_FILE_ENV})`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ApproverRegistryError(`${where} does not exist: create it with ${CREATE_HINT}, or unset ${APPROVERS_FILE_ENV}.`);
    throw new ApproverRegistryError(`${where} cannot be read (${code ?? String(error)}): check its path and permissions.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ApproverRegistryError(`${where} is not valid JSON (${(error as Error).message}): it must look like ${EXAMPLE}.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApproverRegistryError(`${where} must be a JSON object mapping approver names to public keys, like ${EXAMPLE}.`);
  }
  const entries = Object.entries(parsed);
  // An empty registry would refuse every decision; that is a mistake, not a policy.
  if (entries.length === 0) throw new ApproverRegistryError(`${where} lists no approvers: add ${CREATE_HINT}, or unset ${APPROVERS_FILE_ENV}.`);
  const registry: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (name.trim() === '') throw new ApproverRegistryError(`${where} has an entry with an empty name: name it after the approver the key belongs to.`);
    registry[name] = rawPublicKeyHex(`${where}, entry "${name}"`, value);
  }
  return registry;
}

/** The registry named by AGENT_APPROVERS_FILE, or undefined when it is unset or empty (signatures off). */
export function approverRegistryFromEnv(env: NodeJS.ProcessEnv): Record<string, string> | undefined {
  const file = env[APPROVERS_FILE_ENV];
  return file ? loadApproverRegistry(file) : undefined;
}

function rawPublicKeyHex(where: string, value: unknown): string {
  if (typeof value !== 'string' || !value.includes('-----BEGIN PUBLIC KEY-----')) {
    // A pasted private key would still parse (Node derives the public half), but it must not sit in
    // a file the whole worker fleet reads; say so rather than accept it.
    const leaked = typeof value === 'string' && value.includes('PRIVATE KEY');
    throw new ApproverRegistryError(
      leaked
        ? `${where} is a PRIVATE key: remove it at once, replace that key pair, and register only the public key (${CREATE_HINT}).`
        : `${where} must be a PEM string starting with "-----BEGIN PUBLIC KEY-----" (${CREATE_HINT}).`,
    );
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: value, format: 'pem' });
  } catch (error) {
    throw new ApproverRegistryError(`${where} is not a readable PEM public key (${(error as Error).message}): paste ${CREATE_HINT} unchanged.`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new ApproverRegistryError(`${where} is a ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519: make one with \`agentctl keys create\`.`);
  }
  // An Ed25519 SPKI structure ends with the raw 32-byte key.
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - RAW_KEY_BYTES).toString('hex');
}
