import { DurableAgentError } from '../../contract/durable-agent-error';

/** The codec server cannot start as configured (a missing or too short token); says what to change. */
export class CodecServerConfigError extends DurableAgentError {
  override readonly name = 'CodecServerConfigError';
  readonly code = 'CODEC_SERVER_CONFIG_INVALID';
  readonly retryable = false;
}
