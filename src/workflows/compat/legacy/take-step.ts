// How executions from before the one-writer patch (see ../patches.ts) take a step: outcomes are
// dispatched where they arrive, and a wait is one `condition` with a timeout. Kept as it was, so those
// histories replay; new executions use ../../take-step.ts.
import type { RunDriver } from '../../run-driver';
import type { NextStep } from '../../../core/machine/next-step';
import type { RunEvent } from '../../../core/machine/run-events';
import { callModelStep, compactStep, guardrailStep, handoffStep, judgeStep, runChildStep, runToolStep, savePreferenceStep, waitStep } from '../../run-steps';
import { thoughtNote, type StepThought } from '../../step-notes';

/** Every step the loop takes itself; `finish` and `continue_as_new` end the loop instead. */
export type TakenStep = Exclude<NextStep, { kind: 'finish' } | { kind: 'continue_as_new' }>;

/** What a step needs besides the driver: the calls still running, and whether the next step has changed. */
export interface StepContext {
  running: Map<string, Promise<void>>;
  /** Read by a wait on every activation: true once a message changed what the run would do next. */
  moved: (waiting: NextStep) => boolean;
  /** Whether this execution continues a paused turn as it is (see patches.ts), or nudges it with "Continue.". */
  continuePausedTurns: boolean;
  /** The last model reply's thinking, when it thought: said in the summaries of the activities after it. */
  thought?: StepThought;
}

/**
 * Takes one step the machine handed out (it already marked what the step starts): the step's executor
 * runs, and the event it reports goes back through the driver. Tool calls and sub-agent runs go on in
 * the background; each reports its own outcome when it ends.
 */
export async function takeStep(driver: RunDriver, step: TakenStep, ctx: StepContext): Promise<void> {
  const state = driver.state;
  const report = (event: RunEvent | undefined) => {
    if (event) driver.dispatch(event);
  };
  switch (step.kind) {
    case 'run_tools':
      for (const call of step.calls) {
        const work = call.lane === 'child' ? runChildStep(state, call) : runToolStep(state, call, step.endsRun, thoughtNote(ctx.thought));
        ctx.running.set(call.id, work.then(report).finally(() => ctx.running.delete(call.id)));
      }
      return;
    case 'await_tools':
      return void (await Promise.race(ctx.running.values()));
    case 'wait':
      return report(await waitStep(step, () => ctx.moved(step)));
    case 'save_preference':
      return report(await savePreferenceStep(state, step.rule));
    case 'handoff':
      return report(await handoffStep(state, step));
    case 'check_guardrails':
      return report(await guardrailStep(state, step));
    case 'judge':
      return report(await judgeStep(state, step));
    case 'compact':
      return report(await compactStep(state, step));
    case 'call_model': {
      const event = await callModelStep(state, step, ctx.continuePausedTurns, thoughtNote(ctx.thought));
      // A failed call leaves the note for its retry; a reply replaces it with its own count, or none.
      if (event.type === 'model_replied') ctx.thought = event.usage.thinkingTokens ? { iteration: state.iteration, tokens: event.usage.thinkingTokens } : undefined;
      return report(event);
    }
  }
}
