import Anthropic from '@anthropic-ai/sdk';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { FailureType } from '../../contract/errors';

/** Statuses where retrying cannot help: the request itself, the key or the model is wrong. */
const FATAL_STATUSES = new Set([400, 401, 403, 404, 413, 422]);

const ADVICE: Record<number, string> = {
  400: 'the request was invalid; check the agent definition and tool schemas',
  401: 'the API key was refused; check ANTHROPIC_API_KEY',
  403: 'the API key may not use this model or feature',
  404: 'the model or endpoint does not exist; check AGENT_MODEL_* and ANTHROPIC_BASE_URL',
  413: 'the request is too large; lower the agent context budget',
  422: 'the request could not be processed',
};

/** Seconds (or an HTTP date) from `retry-after`, or milliseconds from `retry-after-ms`. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Maps an SDK error to the failure Temporal should act on: fatal statuses end the run at once with a
 * message that says what to fix; overload, rate limits, server errors and connection problems are
 * retried by the activity retry policy, waiting at least as long as `retry-after` asks.
 */
export function toModelFailure(error: unknown, model?: string): Error {
  if (error instanceof Anthropic.APIConnectionError) {
    return ApplicationFailure.create({
      type: FailureType.ModelUnavailable,
      message: `Cannot reach the model API (${error.message}); check ANTHROPIC_BASE_URL and the network. Retrying.`,
      category: ApplicationFailureCategory.BENIGN,
    });
  }
  if (error instanceof Anthropic.APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = apiErrorDetail(error);
    if (FATAL_STATUSES.has(status)) {
      // A 404 names the model: an unknown or mistyped id is a fault of the request, not an outage to wait out.
      const advice = status === 404 && model ? `model "${model}" does not exist or this key cannot use it; fix the agent's \`model\` or the run's --model, else check AGENT_MODEL_* and ANTHROPIC_BASE_URL` : (ADVICE[status] ?? 'not retryable');
      return ApplicationFailure.create({
        type: FailureType.ModelRequestRejected,
        nonRetryable: true,
        message: `Model API rejected the request with ${status} (${detail}): ${advice}.`,
        details: [{ status }],
      });
    }
    const delay = retryAfterMs(error.headers as Headers | undefined);
    return ApplicationFailure.create({
      type: FailureType.ModelUnavailable,
      message: `Model API answered ${status} (${detail}); retrying${delay !== undefined ? ` after ${delay} ms as retry-after asks` : ''}.`,
      nextRetryDelay: delay,
      // The workflow waits out an unavailable API itself and reads the delay from here.
      details: [{ status, retryAfterMs: delay }],
      // An outage to wait out, not a fault: Temporal logs it at DEBUG, and the activity says it in one line.
      category: ApplicationFailureCategory.BENIGN,
    });
  }
  return error instanceof Error ? error : new Error(String(error));
}

function apiErrorDetail(error: InstanceType<typeof Anthropic.APIError>): string {
  const message = error.apiMessage ?? error.message;
  return error.type ? `${error.type}: ${message}` : message;
}

/** Whether a failure is an outage the call waits out (a 529, a rate limit, no connection), said in one line, not a stack. */
export function isRetriedOutage(error: unknown): error is ApplicationFailure {
  return error instanceof ApplicationFailure && error.category === ApplicationFailureCategory.BENIGN && error.type === FailureType.ModelUnavailable;
}
