/** The codec server cannot start as configured (a missing or too short token); says what to change. */
export class CodecServerConfigError extends Error {
  override readonly name = 'CodecServerConfigError';
}
