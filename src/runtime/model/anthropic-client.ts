import Anthropic from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../../contract/errors';

/**
 * The Anthropic client used by model activities. `maxRetries: 0` because Temporal's activity retry
 * policy owns retries: two layers would multiply attempts and hide the backoff from the run history.
 * The key and base URL come from the worker's settings (`model`, read once at start from
 * ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL), never from `process.env` here.
 */
export function createAnthropicClient({ apiKey, baseUrl }: { apiKey?: string; baseUrl?: string }): Anthropic {
  if (!apiKey) {
    throw ApplicationFailure.nonRetryable(
      'ANTHROPIC_API_KEY is not set on the worker. Set it in the worker environment (or point ANTHROPIC_BASE_URL at a compatible server) and start the run again.',
      FailureType.ModelRequestRejected,
    );
  }
  return new Anthropic({
    apiKey,
    baseURL: baseUrl || undefined,
    maxRetries: 0,
    timeout: 10 * 60 * 1000,
  });
}
