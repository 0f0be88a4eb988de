import Anthropic from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../errors';

/**
 * The Anthropic client used by model activities. `maxRetries: 0` because Temporal's activity retry
 * policy owns retries: two layers would multiply attempts and hide the backoff from the run history.
 * `ANTHROPIC_BASE_URL` is honoured by the SDK itself and passed explicitly for clarity.
 */
export function createAnthropicClient(env: NodeJS.ProcessEnv = process.env): Anthropic {
  const apiKey = env.ANTHROPIC_API_KEY;
  if (!apiKey) {
    throw ApplicationFailure.nonRetryable(
      'ANTHROPIC_API_KEY is not set on the worker. Set it in the worker environment (or point ANTHROPIC_BASE_URL at a compatible server) and start the run again.',
      FailureType.ModelRequestRejected,
    );
  }
  return new Anthropic({
    apiKey,
    baseURL: env.ANTHROPIC_BASE_URL || undefined,
    maxRetries: 0,
    timeout: 10 * 60 * 1000,
  });
}
