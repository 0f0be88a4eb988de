// A pure base64 decoder for workflow code. `atob` and `Buffer` are not guaranteed inside Temporal's
// workflow sandbox, and @noble/hashes 1.x has no base64, so this small one is ours. It is strict on
// purpose: a signature is compared as bytes, and a lenient decoder (skipping whitespace, accepting
// missing padding or stray bits) would let several texts stand for one signature.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The bytes of padded, standard-alphabet base64 (RFC 4648 section 4, what Node's
 * `toString('base64')` writes), or undefined for anything else: a length that is not a multiple of
 * four, characters outside the alphabet, misplaced padding, or non-zero bits after the last byte.
 */
export function decodeStrictBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const body = text.slice(0, text.length - padding);
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (const char of body) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return undefined;
    buffer = ((buffer << 6) | value) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  // The bits left over after the last whole byte must be zero, so each byte string has one encoding.
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return at === bytes.length ? bytes : undefined;
}
