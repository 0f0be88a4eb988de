import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { FailureType } from '../errors';

/**
 * Retry ownership: the Anthropic SDK is built with `maxRetries: 0`, so this policy is the only retry
 * layer for model calls. Overload, rate limits and 5xx are retried with exponential backoff (the
 * activity asks for a longer first delay when the API sends `retry-after`); a rejected request or a
 * conversation-store miss is not retried here because repeating it cannot help.
 */
export const model = proxyActivities<Pick<Activities, 'callModel' | 'summarizeConversation'>>({
  startToCloseTimeout: '10 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 12,
    nonRetryableErrorTypes: [FailureType.ModelRequestRejected, FailureType.ConversationStoreMiss, FailureType.UnknownAgent],
  },
});

/**
 * Tools heartbeat every 2 s (the activity wrapper does it), so a worker killed mid-tool is noticed
 * after the heartbeat timeout and the call is retried on another worker. A tool is at-least-once:
 * after three failed attempts the model gets an error result instead of the run failing.
 */
export const tools = proxyActivities<Pick<Activities, 'runTool'>>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** Bookkeeping activities: quick, and safe to retry. */
export const setup = proxyActivities<Pick<Activities, 'resolveAgent' | 'loadPreferences' | 'savePreference'>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [FailureType.UnknownAgent] },
});
