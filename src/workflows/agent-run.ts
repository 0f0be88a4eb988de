import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  setHandler,
  ActivityFailure,
  workflowInfo,
} from '@temporalio/workflow';
import { textOf } from '../contract/messages';
import { FailureType } from '../contract/errors';
import { setup } from './activity-stubs';
import { checkpointQuery } from './definitions';
import { statusQuery } from '../contract/agent-run-api';
import { installMessageHandlers } from './message-handlers';
import { installApprovalBatchHandlers } from './approval-handlers';
import { currentFeatures, type Features } from './compat/patches';
import { RunDriver } from './run-driver';
import { stepKey } from '../core/machine/next-step';
import type { RunState } from '../core/machine/run-state';
import { toStatus } from '../core/machine/run-status';
import { runWarnings } from '../core/machine/on-steer';
import type { AgentRunInput, ParsedRunInput } from '../contract/run-input';
import type { AgentRunResult } from '../contract/run-result';
import { newRunState, parseInput, stateFromCheckpoint } from './run-state-init';
import { takeStep, type StepContext } from './take-step';

export { CONTINUE_NUDGE } from '../core/machine/on-model';

/**
 * The agent loop as a Temporal workflow. All of the run's state is one `RunState`, changed only by
 * the pure transition function (core/machine/); this function only takes the steps the machine hands out
 * as effects (take-step.ts: activities, child runs, waits) or ends the link. Every outcome goes back through the driver.
 */
export async function agentRun(rawInput: AgentRunInput): Promise<AgentRunResult> {
  const features = currentFeatures();
  let driver: RunDriver | undefined;
  let startupFailure: string | undefined;
  // Installed first, so the query answers before the agent is resolved and after a failed start.
  setHandler(statusQuery, () => {
    if (driver) return toStatus(driver.state);
    if (startupFailure) throw new Error(`The run failed before it started: ${startupFailure}`);
    throw new Error('The run is starting; try again in a moment.');
  });
  setHandler(checkpointQuery, () => {
    if (!driver) throw new Error(startupFailure ? `The run failed before it started: ${startupFailure}` : 'The run is starting.');
    return driver.state;
  });
  let input: ParsedRunInput;
  try {
    input = parseInput(rawInput);
    driver = await start(input, features);
  } catch (error) {
    const failure = asRunFailure(error);
    startupFailure = failure.message;
    throw failure;
  }
  installMessageHandlers(driver, { toolWideChoices: !features.scopedChoices, approvalChannel: features.approvalChannel, steering: features.steerWorkingRuns });
  installApprovalBatchHandlers(driver, { toolWideChoices: !features.scopedChoices, approvalChannel: features.approvalChannel });
  driver.publishAgent();
  driver.dispatch({ type: 'started' });

  try {
    await driver.flushAudit();
    return await drive(driver, input, features);
  } catch (error) {
    // Continue-as-new travels as a thrown ContinueAsNew: it ends this link, it is not a failure.
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      driver.dispatch({ type: 'cancelled' });
      await CancellationScope.nonCancellable(() => release(driver!.state, features));
      throw error;
    }
    const failure = asRunFailure(error);
    driver.dispatch({ type: 'failed', errorType: failure.type ?? FailureType.RunFailed, message: failure.message });
    throw failure;
  }
}

async function start(input: ParsedRunInput, features: Features): Promise<RunDriver> {
  if (input.checkpoint === undefined) return new RunDriver(await newRunState(input), features.auditDecisions, features.containedCalls);
  const { state: checkpoint, stored, facts } = await stateFromCheckpoint(input);
  const driver = new RunDriver(checkpoint, features.auditDecisions, features.containedCalls);
  // First, so that nothing of the ended run (its parent, its id) is told about this one.
  if (input.resumedFrom) {
    const { workflowId, runId } = workflowInfo();
    driver.dispatch({ type: 'resumed', from: input.resumedFrom, workflowId, conversationKey: `${workflowId}/${runId}`, moreIterations: input.maxIterations });
  }
  driver.dispatch({ type: 'preferences_reloaded', stored, approverKeys: facts.approverKeys });
  // Only a fork's input names a folder to copy, so no earlier history meets this activity. Read from the
  // driver: the `resumed` event gave the run its own id (the checkpoint still holds the original's).
  const { agent, chain, workflowId } = driver.state;
  if (input.copyWorkspaceOf && agent.workspace === 'per-run' && chain.link === 0) await setup.copyWorkspace({ from: input.copyWorkspaceOf, to: workflowId });
  return driver;
}

/**
 * The loop: ask the machine for the next step, take it, and write the decisions it made to the audit
 * log before the next one (a policy refusal, a timeout, an unknown outcome are on disk before anything
 * acts on them).
 */
async function drive(driver: RunDriver, input: ParsedRunInput, features: Features): Promise<AgentRunResult> {
  // A wait's `condition` re-reads its predicate on every activation, and must end exactly when the step
  // would change: by a message's event, but also by the history filling up, which is no event (its
  // size is Temporal's, not the state's). So the predicate asks the machine which step it would hand
  // out now (`peekStep`: it marks nothing).
  // Ending a wait any other way (on every event, say) would start a new timer, a command that replays
  // of earlier histories do not have.
  const ctx: StepContext = { running: new Map(), moved: (waiting) => stepKey(driver.peekStep(features)) !== stepKey(waiting), continuePausedTurns: features.continuePausedTurns };
  for (;;) {
    driver.publish();
    const step = driver.nextStep(features);
    if (step.kind === 'finish') return finish(driver.state, features);
    if (step.kind === 'continue_as_new') return handOver(driver.state, input);
    await takeStep(driver, step, ctx);
    await driver.flushAudit();
  }
}

/** Deletes the run's conversation from the model activity's store; best effort, the run is over. */
async function release(state: RunState, features: Features): Promise<void> {
  if (!features.releaseConversation) return;
  await setup.releaseConversation({ owner: state.workflowId }).catch(() => undefined);
}

async function finish(state: RunState, features: Features): Promise<AgentRunResult> {
  const outcome = state.outcome!;
  await release(state, features);
  if (outcome.kind === 'failed') throw ApplicationFailure.create({ type: outcome.type, nonRetryable: true, message: outcome.message });
  const lastAssistant = [...state.messages].reverse().find((m) => m.role === 'assistant');
  const warnings = runWarnings(state);
  return {
    status: outcome.kind,
    completion: state.completion,
    ...(state.output !== undefined ? { output: state.output } : {}),
    ...(outcome.kind === 'guardrail_tripped' ? { guardrail: { name: outcome.guardrail, reason: outcome.reason, step: outcome.step } } : {}),
    ...(state.input.followUps ? { completions: state.thread.completions } : {}),
    iterations: state.iteration,
    usage: state.usage,
    tasks: state.tasks,
    agent: state.agent.name,
    workflowId: state.workflowId,
    ...(warnings.length > 0 ? { warnings } : {}),
    carryOver: {
      savedSummaries: state.savedSummaries,
      conversationSummary: state.conversationSummary,
      lastAssistantText: lastAssistant ? textOf(lastAssistant).slice(0, 4_000) : undefined,
    },
  };
}

/** Continues as new with the whole state as the next link's checkpoint (same workflow id). */
async function handOver(state: RunState, input: ParsedRunInput): Promise<never> {
  await condition(allHandlersFinished);
  const { checkpoint: _previous, resumedFrom: _resumed, ...rest } = input;
  return continueAsNew<typeof agentRun>({ ...rest, checkpoint: state });
}

/**
 * Every way a run can fail ends as a non-retryable ApplicationFailure that says what went wrong; an
 * unexpected error must not become a workflow task failure that Temporal retries forever.
 */
function asRunFailure(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure) {
    const cause = error.cause;
    return ApplicationFailure.create({ type: cause.type ?? undefined, nonRetryable: true, message: cause.message, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return ApplicationFailure.create({ type: FailureType.RunFailed, nonRetryable: true, message, cause: error instanceof Error ? error : undefined });
}
