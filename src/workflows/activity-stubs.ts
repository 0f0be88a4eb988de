import { proxyActivities, proxyLocalActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { Activities } from '../runtime/activities';
import { FailureType } from '../contract/errors';

/**
 * The run's priority and fairness key for every activity it schedules. The server gives a child
 * workflow its parent's priority but not an activity its workflow's, and the stubs below are made
 * once per bundle: the SDK copies a stub's options at each call, so a getter reads the priority of the
 * run making the call. A run that set none schedules exactly what it did before.
 */
function withRunPriority<T extends ActivityOptions>(options: T): T {
  return Object.defineProperty(options, 'priority', {
    enumerable: true,
    get() {
      const priority = workflowInfo().priority;
      return priority && (priority.priorityKey || priority.fairnessKey) ? priority : undefined;
    },
  });
}

/**
 * Model calls stream and heartbeat (see activities/call-model.ts), so a worker that dies mid-call is
 * noticed within the heartbeat timeout and the call starts again on another worker; there is no
 * overall time limit a long answer could hit. Retries here cover only that (and timeouts): an
 * unavailable API comes back to the workflow at once (`ModelUnavailable` is non-retryable here) and
 * the workflow waits it out itself, so the wait shows as `waiting_for_model` and never runs out.
 */
export const model = proxyActivities<Pick<Activities, 'callModel'>>(withRunPriority({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: [FailureType.ModelRequestRejected, FailureType.ConversationStoreMiss, FailureType.UnknownAgent, FailureType.ModelUnavailable],
  },
}));

/**
 * The summarizer streams and heartbeats too. It keeps Temporal's own retries for an unavailable API
 * (no cap, up to 5 minutes apart): the run shows `compacting` meanwhile.
 */
export const summarizer = proxyActivities<Pick<Activities, 'summarizeConversation'>>(withRunPriority({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '5 minutes',
    nonRetryableErrorTypes: [FailureType.ModelRequestRejected, FailureType.ConversationStoreMiss, FailureType.UnknownAgent],
  },
}));

/**
 * Tools that are safe to run again (read tools, write_file): a worker killed mid-call is noticed by
 * the heartbeat timeout (the activity wrapper heartbeats every 2 s) and the call runs again elsewhere;
 * after three failed attempts the model gets an error result instead of the run failing.
 */
export const tools = proxyActivities<Pick<Activities, 'runTool'>>(withRunPriority({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 },
}));

/**
 * Tools that must not run twice (shell, and any tool not declared idempotent): one attempt only. If its
 * worker dies, the call is not repeated; the workflow reports "outcome unknown" to the model instead.
 */
export const onceTools = proxyActivities<Pick<Activities, 'runTool'>>(withRunPriority({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumAttempts: 1 },
}));

/**
 * Quick idempotent tools (read tools, write_file) run inside the workflow task that decided them:
 * one worker-local call instead of an activity task and a second workflow task, which halves the
 * round trips of an iteration. Local activities run again if the workflow task fails before it
 * completes (a killed worker), so only tools that are safe to repeat use this. A call still failing
 * after two quick attempts is handed to the ordinary `tools` stub (see run-steps.ts).
 */
export const localTools = proxyLocalActivities<Pick<Activities, 'runTool'>>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 2 },
});

/** Bookkeeping activities: quick and safe to retry, but not forever; a failure is reported by the run. */
export const setup = proxyActivities<Pick<Activities, 'resolveAgent' | 'loadPreferences' | 'savePreference' | 'releaseConversation' | 'checkGuardrails' | 'judgeApprovals' | 'checkEdits' | 'copyWorkspace'>>(withRunPriority({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10, nonRetryableErrorTypes: [FailureType.UnknownAgent, FailureType.InvalidRunInput] },
}));

/**
 * Decisions forwarded to the sub-agent run that waits for them (patch forwardByUpdate): the activity
 * waits for that run's answer. Bounded, so a run below that does not answer cannot hold the loop for
 * long: after the last attempt the decision is reported as delivered but not confirmed.
 */
export const forwarding = proxyActivities<Pick<Activities, 'forwardDecisions'>>(withRunPriority({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
}));

/**
 * The audit log's decision lines, written inside the workflow task that made the decision by runs
 * from before patch `audit-after-commit` (new runs use `committedAudit` below) (see
 * activities/record-audit.ts). Retried until written: no tool a decision allowed starts before its
 * line is on disk.
 */
export const audit = proxyLocalActivities<Pick<Activities, 'recordAudit'>>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
});

/**
 * The same writer as an activity task (patch `audit-after-commit`): the server starts it only once it
 * has kept the workflow task that scheduled it, so a task it never keeps (its worker died, or it was
 * refused) writes no line. Retried until written, like the local one.
 */
export const committedAudit = proxyActivities<Pick<Activities, 'recordAudit'>>(withRunPriority({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
}));
