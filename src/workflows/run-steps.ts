import { ActivityFailure, ApplicationFailure, condition, isCancellation } from '@temporalio/workflow';
import type { PreferenceRule } from '../approvals/preference-rules';
import { FailureType } from '../errors';
import { localTools, model, onceTools, setup, summarizer, tools } from './activity-stubs';
import { historyIsFull } from './history-budget';
import type { Features } from './patches';
import type { RunDriver } from './run-driver';
import { approvalOf, callSummary } from './run-machine/call-records';
import type { CompactionPlan } from './run-machine/compaction-plan';
import { nextStep, type NextStep } from './run-machine/next-step';
import type { RunState, TurnCall } from './run-machine/run-state';

/** The conversation as the activity should rebuild it: what it already keeps, plus what is new. */
export function conversationRef(state: RunState) {
  const { key, syncedCount, tag } = state.conversation;
  return { key, owner: state.workflowId, baseCount: syncedCount, tag, append: state.messages.slice(syncedCount) };
}

function applicationCause(error: unknown): ApplicationFailure | undefined {
  return error instanceof ActivityFailure && error.cause instanceof ApplicationFailure ? error.cause : undefined;
}

const isStoreMiss = (error: unknown) => applicationCause(error)?.type === FailureType.ConversationStoreMiss;

/** Retry-after the activity saw, carried in the failure's details (see model/model-errors.ts). */
function retryAfterOf(failure: ApplicationFailure): number | undefined {
  const detail = failure.details?.[0] as { retryAfterMs?: unknown } | undefined;
  return typeof detail?.retryAfterMs === 'number' ? detail.retryAfterMs : undefined;
}

/** One attempt of the iteration's model call; every outcome goes back through the driver. */
export async function callModelStep(driver: RunDriver, features: Features): Promise<void> {
  driver.dispatch({ type: 'model_call_started' });
  const state = driver.state;
  try {
    const result = await model.callModel.executeWithOptions({ summary: `model ${state.agent.modelTier} #${state.iteration}` }, [
      { agent: state.agent.name, iteration: state.iteration, conversation: conversationRef(state) },
    ]);
    driver.dispatch({ type: 'model_replied', ...result });
  } catch (error) {
    if (isCancellation(error)) throw error;
    if (isStoreMiss(error)) return driver.dispatch({ type: 'conversation_resent' });
    const failure = applicationCause(error);
    if (!failure) throw error;
    // Histories from before the outage wait (see patches.ts) failed the run here; they still do.
    const retryable = failure.type === FailureType.ModelUnavailable && features.waitOutModelOutage;
    driver.dispatch({
      type: 'model_failed',
      retryable,
      errorType: failure.type ?? FailureType.RunFailed,
      message: failure.message,
      retryAfterMs: retryAfterOf(failure),
    });
  }
}

/** Summarizes the turns before the plan's split (or only cuts oversized outputs, without a model call). */
export async function compactStep(driver: RunDriver, plan: CompactionPlan, features: Features): Promise<void> {
  if (plan.split === undefined) return driver.dispatch({ type: 'compacted', estimate: plan.estimate, fit: true });
  driver.dispatch({ type: 'compaction_started' });
  for (;;) {
    const state = driver.state;
    try {
      const result = await summarizer.summarizeConversation.executeWithOptions({ summary: `compact turns 1-${plan.split - 1}` }, [
        // From 0: the first message carries the previous summary, so the new one replaces it.
        { conversation: conversationRef(state), from: 0, to: plan.split, task: state.input.task },
      ]);
      return driver.dispatch({ type: 'compacted', ...result, split: plan.split, estimate: plan.estimate, fit: features.compactionByBudget });
    } catch (error) {
      if (!isStoreMiss(error)) throw error;
      driver.dispatch({ type: 'conversation_resent' });
    }
  }
}

/**
 * Runs one approved tool call. A call whose tool is not safe to repeat gets one attempt: if its
 * worker dies, the model is told the outcome is unknown instead of the command running twice. A call
 * that is safe to repeat that still fails after its attempts becomes an error result.
 */
export async function runToolStep(driver: RunDriver, call: TurnCall, features: Pick<Features, 'localQuickTools'>): Promise<void> {
  const state = driver.state;
  const tool = state.agent.tools[call.name]!;
  const stub = tool.idempotent ? tools : onceTools;
  driver.dispatch({ type: 'tool_started', callId: call.id });
  const started = Date.now();
  const input = {
    agent: state.agent.name,
    tool: call.name,
    callId: call.id,
    input: call.input,
    workflowId: state.workflowId,
    network: state.input.network ?? state.agent.network,
    approval: approvalOf(state, call.id),
    iteration: state.turn?.iteration,
  };
  try {
    const local = features.localQuickTools && tool.idempotent && tool.quick === true;
    const result = (local ? await runLocally(input) : undefined) ?? (await stub.runTool.executeWithOptions({ summary: callSummary(call.name, call.input) }, [input]));
    driver.dispatch({ type: 'tool_finished', callId: call.id, result, durationMs: Date.now() - started });
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    const cause = error.cause?.message ?? error.message;
    const durationMs = Date.now() - started;
    if (!tool.idempotent) return driver.dispatch({ type: 'tool_outcome_unknown', callId: call.id, cause, durationMs });
    driver.dispatch({
      type: 'tool_finished',
      callId: call.id,
      result: { success: false, shouldContinue: true, output: `${call.name} could not finish (${cause}). Try a different approach.` },
      durationMs,
    });
  }
}

/** A quick call as a local activity; undefined when it failed, so the caller runs it as an ordinary activity. */
async function runLocally(input: Parameters<typeof localTools.runTool>[0]) {
  try {
    return await localTools.runTool(input);
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    return undefined;
  }
}

/** Writes one queued "always"/"never" to the person's store; a failure is reported, and the run goes on. */
export async function savePreferenceStep(driver: RunDriver, rule: PreferenceRule): Promise<void> {
  try {
    await setup.savePreference({ user: rule.by ?? driver.state.input.user, change: rule });
    driver.dispatch({ type: 'preferences_saved', count: 1 });
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    driver.dispatch({ type: 'preferences_not_saved', count: 1, error: error.cause?.message ?? error.message });
  }
}

const stepKey = (step: NextStep) => (step.kind === 'wait' ? `wait:${step.for}` : step.kind);

/**
 * Waits until a message changes what the run would do next (a decision, a reply, the history filling
 * up) or the deadline passes; a passed deadline is told to the state machine as `time_passed`.
 */
export async function waitStep(driver: RunDriver, step: Extract<NextStep, { kind: 'wait' }>, features: Features): Promise<void> {
  const key = stepKey(step);
  const env = () => ({ now: Date.now(), historyFull: historyIsFull(driver.state.input.historyBudget), features });
  const changed = await condition(() => stepKey(nextStep(driver.state, env())) !== key, Math.max(0, step.until - Date.now()));
  if (!changed) driver.dispatch({ type: 'time_passed' });
}
