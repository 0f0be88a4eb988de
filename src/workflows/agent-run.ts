import { allHandlersFinished, CancellationScope, condition, ContinueAsNew, isCancellation, setHandler, workflowInfo } from '@temporalio/workflow';
import { statusQuery } from '../contract/agent-run-api';
import { watchStatusQuery } from '../contract/live-status';
import { FailureType } from '../contract/errors';
import type { AgentRunInput, ParsedRunInput } from '../contract/run-input';
import type { AgentRunResult } from '../contract/run-result';
import type { RunState } from '../core/machine/run-state';
import { startingStatus, toStatus } from '../core/machine/run-status';
import { legacyAgentRun, type RunSlot } from './compat/legacy/agent-run';
import { migrateState } from './compat/migrations/migrate-state';
import { currentFeatures } from './compat/patches';
import { DeadlineTimer } from './deadline-timer';
import { checkpointQuery } from './definitions';
import { Deliveries } from './deliveries';
import { Mailbox } from './mailbox';
import { installMessageHandlers, signingEnvOf, type MessageOptions } from './message-handlers';
import { asRunFailure, resultOf, startLink } from './run-lifecycle';
import { StatusWatch } from './status-watch';
import { endRun, runLoop, settle, type Loop } from './run-loop';
import { parseInput } from './run-state-init';

export { CONTINUE_NUDGE } from '../core/machine/on-model';

/**
 * The agent loop as a Temporal workflow. All of the run's state is one `RunState`, changed only by the
 * pure transition function (core/machine/), and only by the loop (run-loop.ts): it applies what the
 * message handlers queued, takes the steps the machine hands out (take-step.ts: activities, child runs,
 * waits), and ends the link. Every handler is installed before the first `await` of every link.
 * Executions from before that design (patch oneWriter) run the code they started with (compat/legacy/).
 */
export async function agentRun(rawInput: AgentRunInput): Promise<AgentRunResult> {
  const features = currentFeatures();
  const slot: RunSlot = { watch: new StatusWatch() };
  installQueries(slot, rawInput);
  if (!features.oneWriter) return legacyAgentRun(rawInput, features, slot);

  const mailbox = new Mailbox();
  const options: MessageOptions = { toolWideChoices: !features.scopedChoices, approvalChannel: features.approvalChannel, steering: features.steerWorkingRuns, approvalChannelII: features.approvalChannelII, signedOnce: features.signedOnce, forwardByUpdate: features.forwardByUpdate, raisesOnce: features.accountableRaises };
  installMessageHandlers(mailbox, () => slot.driver?.state, options);

  let input: ParsedRunInput;
  try {
    input = parseInput(rawInput);
    slot.driver = await startLink(input, { auditing: features.auditDecisions, oneWriter: true, containedCalls: features.containedCalls, publishesCost: features.costAttribute, allowedCallLines: features.ruleDecisionLines, linkMakesProgress: features.linkMakesProgress, auditAfterCommit: features.auditAfterCommit, report: (event) => mailbox.report(event), watch: slot.watch }, features.approvalChannelII);
  } catch (error) {
    // Nothing was applied: every message that came meanwhile is refused with the reason.
    const cancelled = isCancellation(error);
    slot.startupFailure = cancelled ? 'it was cancelled while the worker set it up' : asRunFailure(error).message;
    const reason = `The run failed before it started: ${slot.startupFailure}`;
    for (const letter of mailbox.close(reason)) letter.answer({ refused: reason });
    await CancellationScope.nonCancellable(() => condition(allHandlersFinished));
    throw cancelled ? error : asRunFailure(error);
  }
  const driver = slot.driver;
  const loop: Loop = {
    input,
    runFeatures: features,
    features: { ...features, handOverWhenCallsDone: true },
    driver,
    mailbox,
    options,
    deliveries: new Deliveries(driver.state),
    signingEnv: () => signingEnvOf(options),
    continuePausedTurns: features.continuePausedTurns,
    quickLoop: features.quickLoop,
    running: new Map(),
    timer: new DeadlineTimer(),
    settle: () => settle(loop),
  };
  driver.publishAgent();
  driver.publishUser();
  driver.dispatch({ type: 'started' });

  let ended: RunState;
  try {
    await driver.flushAudit();
    ended = await runLoop(loop);
  } catch (error) {
    // Continue-as-new travels as a thrown ContinueAsNew: it ends this link, it is not a failure.
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      driver.dispatch({ type: 'cancelled' });
      await CancellationScope.nonCancellable(() => endRun(loop, 'The run was cancelled'));
      throw error;
    }
    const failure = asRunFailure(error);
    driver.dispatch({ type: 'failed', errorType: failure.type ?? FailureType.RunFailed, message: failure.message });
    await endRun(loop, `The run failed: ${failure.message}`);
    throw failure;
  }
  // A run the machine ended as failed throws its failure here, outside the loop's own failure path.
  return resultOf(ended, driver.costUsd());
}

/**
 * The queries, installed first on every path: `status` answers from the first moment (phase
 * `starting` until the link has its state, from its checkpoint when it has one), and after a start
 * that failed says why.
 */
function installQueries(slot: RunSlot, rawInput: AgentRunInput): void {
  const status = () => {
    if (slot.driver) return toStatus(slot.driver.state);
    if (slot.startupFailure) throw new Error(`The run failed before it started: ${slot.startupFailure}`);
    return statusWhileStarting(rawInput);
  };
  setHandler(statusQuery, status);
  // The relay's reading: the same answer, and the run pushes what follows for a while (status-watch.ts).
  setHandler(watchStatusQuery, () => {
    slot.watch.arm();
    return status();
  });
  setHandler(checkpointQuery, () => {
    if (!slot.driver) throw new Error(slot.startupFailure ? `The run failed before it started: ${slot.startupFailure}` : 'The run is starting.');
    return slot.driver.state;
  });
}

/** A continued or resumed link shows its checkpoint; a new run what its input says. */
function statusWhileStarting(raw: AgentRunInput) {
  const input = (raw ?? {}) as Partial<AgentRunInput>;
  if (input.checkpoint !== undefined) {
    try {
      return { ...toStatus(migrateState(input.checkpoint, new Date().toISOString())), phase: 'starting' as const };
    } catch {
      // A checkpoint the start will refuse: the input's own fields are all there is.
    }
  }
  return startingStatus({
    workflowId: workflowInfo().workflowId,
    agent: String(input.agent ?? ''),
    task: String(input.task ?? ''),
    user: input.user,
    maxIterations: input.maxIterations,
    followUps: input.followUps,
    parent: input.parent,
  });
}
