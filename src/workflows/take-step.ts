import { allHandlersFinished, condition, isCancellation } from '@temporalio/workflow';
import type { NextStep, StepFeatures, ToolRun } from '../core/machine/next-step';
import { stepKey } from '../core/machine/next-step';
import type { RunEvent } from '../core/machine/run-events';
import type { RunState } from '../core/machine/run-state';
import { isStarted } from '../core/machine/call-records';
import type { DeadlineTimer } from './deadline-timer';
import type { Mailbox } from './mailbox';
import type { RunDriver } from './run-driver';
import { callModelStep, compactStep, guardrailStep, handoffStep, judgeStep, runChildStep, runToolStep, savePreferenceStep } from './run-steps';
import { thoughtNote, type StepThought } from './step-notes';

/** Every step the loop takes itself; `finish` and `continue_as_new` end the loop instead. */
export type TakenStep = Exclude<NextStep, { kind: 'finish' } | { kind: 'continue_as_new' }>;

/** What taking a step needs: the run, its mailbox, and what lives across steps. */
export interface StepContext {
  driver: RunDriver;
  mailbox: Mailbox;
  features: StepFeatures;
  /** Whether this execution continues a paused turn as it is (see compat/patches.ts), or nudges it with "Continue.". */
  continuePausedTurns: boolean;
  /** Calls this execution started that have not reported yet. */
  running: Map<string, Promise<void>>;
  /** The timer of the wait the loop is in, kept when the loop enters the same wait again. */
  timer: DeadlineTimer;
  /** The last model reply's thinking, when it thought: said in the summaries of the activities after it. */
  thought?: StepThought;
  /** Patch `quick-loop`: a step's outcome is kept by one `then` (see whileWorking). */
  quickLoop: boolean;
  /** Applies everything waiting in the mailbox (the loop's own settle); nothing to await when it was done at once. */
  settle(): Promise<void> | undefined;
}

/** What a wait's timer is called in the Web UI. */
const WAIT_SUMMARY: Record<Extract<NextStep, { kind: 'wait' }>['for'], string> = {
  approval: 'approval deadline',
  reply: 'reply deadline',
  model_retry: 'next model attempt',
  message: 'thread idle timeout',
  budget: 'budget deadline',
};

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The event of a call whose own workflow code failed (not its activity: that is a result): the model
 * is told it could not run, or, for a call that must not run twice, that its outcome is unknown.
 */
export function failedCallEvent(call: ToolRun, error: unknown): RunEvent {
  const cause = errorText(error);
  if (call.lane === 'child') return { type: 'child_finished', callId: call.id, outcome: { error: `the sub-agent run could not be followed: ${cause}` }, durationMs: 0 };
  if (call.lane === 'once') return { type: 'tool_outcome_unknown', callId: call.id, cause, durationMs: 0 };
  return { type: 'tool_finished', callId: call.id, result: { success: false, shouldContinue: true, output: `${call.name} could not run (${cause}). Try a different approach.` }, durationMs: 0 };
}

/**
 * Starts a call in the background. Nothing awaits it, so its promise never rejects: its outcome goes
 * to the mailbox as an event, a failure of its own code as the call's failed result, and a
 * cancellation (the run is being cancelled) as a fault the loop rethrows.
 */
export function startInBackground(ctx: Pick<StepContext, 'mailbox' | 'running'>, call: ToolRun, work: () => Promise<RunEvent>): void {
  const reported = Promise.resolve()
    .then(work)
    .then(
      (event) => ctx.mailbox.report(event),
      (error: unknown) => (isCancellation(error) ? ctx.mailbox.fault(error) : ctx.mailbox.report(failedCallEvent(call, error))),
    )
    .finally(() => ctx.running.delete(call.id));
  ctx.running.set(call.id, reported);
}

/**
 * Waits for `work` while applying what arrives meanwhile (a person's message, a background call's
 * outcome): the loop stays the one writer, and a message is answered while an activity takes minutes.
 * The outcome is kept by one `then` (not `finally` and a returned promise, which cost four promises
 * more, each with the SDK's captured stack trace) and returned as it is, unless a handler runs.
 */
export function whileWorking<T>(ctx: Pick<StepContext, 'mailbox' | 'settle' | 'quickLoop'>, work: Promise<T>): Promise<T> {
  return ctx.quickLoop ? whileWorkingQuickly(ctx, work) : whileWorkingAwaited(ctx, work);
}

async function whileWorkingQuickly<T>(ctx: Pick<StepContext, 'mailbox' | 'settle'>, work: Promise<T>): Promise<T> {
  let outcome: { value: T } | { error: unknown } | undefined;
  // Observed here, so a rejection that comes while the loop applies messages is not unhandled.
  void work.then(
    (value) => void (outcome = { value }),
    (error: unknown) => void (outcome = { error }),
  );
  for (;;) {
    await condition(() => outcome !== undefined || ctx.mailbox.size > 0);
    // With a handler running, the outcome comes back after the microtasks it always took (see run-loop.ts settle).
    if (outcome && !allHandlersFinished()) return work;
    if (outcome) {
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    }
    const settling = ctx.settle();
    if (settling) await settling;
  }
}

/** `whileWorking` of executions before patch `quick-loop`: their histories depend on its microtasks. */
async function whileWorkingAwaited<T>(ctx: Pick<StepContext, 'mailbox' | 'settle'>, work: Promise<T>): Promise<T> {
  let done = false;
  const finished = work.finally(() => void (done = true));
  finished.catch(() => undefined);
  for (;;) {
    await condition(() => done || ctx.mailbox.size > 0);
    if (done) return finished;
    await ctx.settle();
  }
}

/**
 * Takes one step the machine handed out (it already marked what the step starts). The step's own
 * outcome is applied here, by the loop; tool calls and sub-agent runs go on in the background and
 * report to the mailbox. A wait returns as soon as anything arrives, for the loop to apply it and ask
 * for its next step: the same wait again keeps its timer.
 */
export async function takeStep(step: TakenStep, ctx: StepContext): Promise<void> {
  const { driver } = ctx;
  const state = driver.state;
  switch (step.kind) {
    case 'run_tools':
      for (const call of step.calls) {
        startInBackground(ctx, call, () => (call.lane === 'child' ? runChildStep(state, call, ctx.features.childCancelIsAResult === true) : runToolStep(state, call, step.endsRun, thoughtNote(ctx.thought))));
      }
      return;
    case 'await_tools':
      if (ctx.running.size === 0 && ctx.mailbox.size === 0) return reportOrphans(ctx);
      return condition(() => ctx.mailbox.size > 0);
    case 'wait':
      return waitStep(step, ctx);
    case 'save_preference':
      return driver.dispatch(await whileWorking(ctx, savePreferenceStep(state, step.rule)));
    case 'handoff':
      return driver.dispatch(await whileWorking(ctx, handoffStep(state, step)));
    case 'check_guardrails':
      return driver.dispatch(await whileWorking(ctx, guardrailStep(state, step)));
    case 'judge':
      return driver.dispatch(await whileWorking(ctx, judgeStep(state, step)));
    case 'compact':
      return driver.dispatch(await whileWorking(ctx, compactStep(state, step)));
    case 'call_model': {
      const event = await whileWorking(ctx, callModelStep(state, step, ctx.continuePausedTurns, thoughtNote(ctx.thought)));
      // A failed call leaves the note for its retry; a reply replaces it with its own count, or none.
      if (event.type === 'model_replied') ctx.thought = event.usage.thinkingTokens ? { iteration: state.iteration, tokens: event.usage.thinkingTokens } : undefined;
      return driver.dispatch(event);
    }
  }
}

/**
 * Waits until something arrives, the step would change (the history filled up, a deadline moved),
 * or the deadline passes; a passed deadline is told to the machine as `time_passed`.
 */
async function waitStep(step: Extract<NextStep, { kind: 'wait' }>, ctx: StepContext): Promise<void> {
  const deadline = ctx.timer.arm(step.until, WAIT_SUMMARY[step.for]);
  // Time ends a wait only through its timer. The peek keeps the clock of the wait's start: a workflow
  // task that leaves no event (a refused update) must not see time move, or the run would act in a
  // task its history does not hold (found by the fuzzer, seeds 5 and 47).
  const moment = ctx.driver.peekMoment();
  // The condition runs on every activation; with the clock pinned, the peek depends on the state alone,
  // which is immutable: it is asked again only when the state changed (issue 37).
  let peeked: { state: RunState; moved: boolean } | undefined;
  const moved = () => {
    const state = ctx.driver.state;
    if (peeked?.state === state) return peeked.moved;
    const next = ctx.driver.peekStep(ctx.features, moment);
    peeked = { state, moved: stepKey(next) !== stepKey(step) || (next.kind === 'wait' && !Object.is(next.until, step.until)) };
    return peeked.moved;
  };
  await condition(() => ctx.mailbox.size > 0 || deadline.fired || moved());
  if (ctx.mailbox.size > 0 || !deadline.fired || moved()) return;
  ctx.timer.disarm();
  ctx.driver.dispatch({ type: 'time_passed' });
}

/**
 * Calls the state marks as running that no activity of this execution runs: an earlier link handed
 * over while they ran (executions before the one-writer patch could). Nobody will report them, so
 * they end here: outcome unknown for a tool, an error for a sub-agent's run.
 */
function reportOrphans(ctx: StepContext): void {
  const orphans = (ctx.driver.state.turn?.calls ?? []).filter((c) => isStarted(c) && !c.result && !ctx.running.has(c.id));
  // The machine said a call runs; if none does here either, waiting would never end.
  if (orphans.length === 0) throw new Error('the turn waits for running calls, but no call runs or was left behind by an earlier link; this is a bug of the run loop, please report it with the run\'s history');
  const cause = 'an earlier link of this run handed over while it ran, and nothing reports it here';
  for (const call of orphans) {
    ctx.driver.dispatch(call.child ? { type: 'child_finished', callId: call.id, outcome: { error: `the sub-agent run was left behind: ${cause}` }, durationMs: 0 } : { type: 'tool_outcome_unknown', callId: call.id, cause, durationMs: 0 });
  }
}
