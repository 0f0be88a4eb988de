// The loop of executions from before the one-writer patch (see ../patches.ts), kept as it was so their
// histories replay: handlers are installed once the agent is resolved and change the state themselves,
// and the link hands over the state it read before waiting for them. New executions run
// ../../run-loop.ts. Delete this folder with the patch, once no such execution can still be running.
import { allHandlersFinished, CancellationScope, condition, ContinueAsNew, continueAsNew, isCancellation } from '@temporalio/workflow';
import { FailureType } from '../../../contract/errors';
import type { AgentRunInput, ParsedRunInput } from '../../../contract/run-input';
import type { AgentRunResult } from '../../../contract/run-result';
import { stepKey } from '../../../core/machine/next-step';
import type { RunState } from '../../../core/machine/run-state';
import type { Features } from '../patches';
import type { RunDriver } from '../../run-driver';
import type { StatusWatch } from '../../status-watch';
import { asRunFailure, finish, nextLinkInput, release, startLink } from '../../run-lifecycle';
import { parseInput } from '../../run-state-init';
import { installApprovalBatchHandlers } from './approval-handlers';
import { installMessageHandlers } from './message-handlers';
import { takeStep, type StepContext } from './take-step';

/** Where the queries find the run: set once the agent is resolved, or the reason the start failed. */
export interface RunSlot {
  driver?: RunDriver;
  startupFailure?: string;
  /** Armed by the `watchStatus` query; only one-writer executions push through it. */
  watch: StatusWatch;
}

export async function legacyAgentRun(rawInput: AgentRunInput, features: Features, slot: RunSlot): Promise<AgentRunResult> {
  let input: ParsedRunInput;
  let driver: RunDriver;
  try {
    input = parseInput(rawInput);
    driver = slot.driver = await startLink(input, { auditing: features.auditDecisions, oneWriter: false, containedCalls: features.containedCalls });
  } catch (error) {
    const failure = asRunFailure(error);
    slot.startupFailure = failure.message;
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
      await CancellationScope.nonCancellable(() => release(driver.state, features));
      throw error;
    }
    const failure = asRunFailure(error);
    driver.dispatch({ type: 'failed', errorType: failure.type ?? FailureType.RunFailed, message: failure.message });
    throw failure;
  }
}

/**
 * The loop: ask the machine for the next step, take it, and write the decisions it made to the audit
 * log before the next one.
 */
async function drive(driver: RunDriver, input: ParsedRunInput, features: Features): Promise<AgentRunResult> {
  // A wait ends exactly when the step would change (a new timer on every event would be a command
  // these histories do not have).
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

/** Continues as new with the state as it was when the step was chosen (the stale read the patch fixed). */
async function handOver(state: RunState, input: ParsedRunInput): Promise<never> {
  await condition(allHandlersFinished);
  return continueAsNew<(input: AgentRunInput) => Promise<AgentRunResult>>(nextLinkInput(input, state));
}
