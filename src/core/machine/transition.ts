import { produce } from 'immer';
import { withRule } from '../approvals/preference-rules';
import type { LifecycleEvent } from '../../contract/lifecycle-event';
import { onCompacted } from './on-compacted';
import { onDecision, onReply, onSignaturesAccepted, onTimePassed, recordIgnored } from './on-decision';
import { failRun, onModelCallStarted, onModelFailed, onModelReplied } from './on-model';
import { onToolFinished, onToolOutcomeUnknown, onToolStarted } from './on-tool';
import { onCallsJudged, onGuardrailsChecked } from './on-guardrails';
import { onChildFinished, onChildStarted, onChildWaiting, onHandedOff, onParentUnreachable } from './on-team';
import { onCloseRequested, onUserMessage } from './on-thread';
import { onModeSet } from './on-mode';
import { onBudgetRaised } from './on-budget';
import { onResume } from './on-resume';
import { deliverSteering, queueSteering } from './on-steer';
import type { RunEvent } from './run-events';
import { pushBounded, StateLimits, type RunState } from './run-state';
import { advance, phaseOf, type Standing } from './advance';
import { stepOf, type NextStep, type StepEnv } from './next-step';
import { startedEvents } from './started-events';
import { transitionContext, type TransitionContext, type TransitionEnv } from './transition-context';

export interface TransitionResult {
  state: RunState;
  /** What the workflow does next: the one step a `step_wanted` event asks for; empty for every other event. */
  effects: NextStep[];
  /** Lifecycle events this transition produced, for the worker's handlers (already in `state.events`). */
  events: LifecycleEvent[];
}

/** The transition of `step_wanted` was given no features: the workflow must say how this execution behaves. */
export class StepEnvMissingError extends Error {
  constructor() {
    super('step_wanted needs the execution\'s features (and historyFull) in the transition env; pass them from currentFeatures()');
    this.name = 'StepEnvMissingError';
  }
}

function apply(state: RunState, event: RunEvent, ctx: TransitionContext): void {
  switch (event.type) {
    case 'model_call_started':
      onModelCallStarted(state, ctx);
      return deliverSteering(state, ctx);
    case 'model_replied':
      return onModelReplied(state, event, ctx);
    case 'model_failed':
      return onModelFailed(state, event, ctx);
    case 'conversation_resent':
      state.conversation.syncedCount = 0;
      return;
    case 'compaction_started':
      state.compacting = true;
      return;
    case 'compacted':
      return onCompacted(state, event, ctx);
    case 'tool_started':
      return onToolStarted(state, event.callId, ctx);
    case 'tool_finished':
      return onToolFinished(state, event.callId, event.result, event.durationMs, ctx, event.legacy);
    case 'tool_outcome_unknown':
      return onToolOutcomeUnknown(state, event.callId, event.cause, event.durationMs, ctx, event.reason);
    case 'decision':
      return onDecision(state, event.decision, event.via, event.verified, ctx, event.toolWide, event.legacy, event.analysis);
    case 'decisions':
      for (const { decision, analysis } of event.decisions) onDecision(state, decision, event.via, event.verified, ctx, event.toolWide, event.legacy, analysis);
      return;
    case 'mode_set':
      return onModeSet(state, event.mode, ctx, event.by, event.reason);
    case 'reply':
      return onReply(state, event.text, ctx);
    case 'signatures_accepted':
      return onSignaturesAccepted(state, event.signed, ctx);
    case 'ignored':
      return recordIgnored(state, event.kind, event.reason, event.payload, ctx);
    case 'time_passed':
      return onTimePassed(state, ctx);
    case 'budget_raised': {
      const refusal = onBudgetRaised(state, event, ctx);
      if (refusal) recordIgnored(state, 'raiseBudget', refusal, JSON.stringify({ maxUsd: event.maxUsd, maxTokens: event.maxTokens, by: event.by }), ctx);
      return;
    }
    case 'preferences_saved':
      state.unsavedPreferences.splice(0, event.count);
      return;
    case 'preferences_not_saved': {
      const lost = state.unsavedPreferences.splice(0, event.count);
      const what = lost.map((r) => `${r.preference} for ${r.tool}`).join(', ');
      pushBounded(state.warnings, `could not save ${what} to ${state.input.user}'s remembered choices (${event.error}); it holds for this run only`, StateLimits.warnings);
      ctx.emit(state, 'errorOccurred', { message: `could not save a remembered choice: ${event.error}`, type: 'PreferenceNotSaved' }, `prefs-${state.warnings.length}`);
      return;
    }
    case 'preferences_reloaded':
      // Choices made in this run still hold, whether or not they reached the person's store.
      state.preferences = state.choicesThisRun.reduce((rules, rule) => withRule(rules, rule), event.stored);
      if (event.approverKeys !== undefined) state.approverKeys = event.approverKeys;
      return;
    case 'started':
      if (state.chain.link === 0) ctx.emit(state, 'agentStarted', { task: state.input.task, user: state.input.user });
      return;
    case 'resumed':
      return onResume(state, event, ctx);
    case 'child_started':
      return onChildStarted(state, event.callId, event.workflowId, ctx);
    case 'child_finished':
      return onChildFinished(state, event.callId, event.outcome, event.durationMs, ctx);
    case 'child_waiting':
      return onChildWaiting(state, event.workflowId, event.waiting);
    case 'parent_unreachable':
      return onParentUnreachable(state, event.parent, event.error, ctx);
    case 'handed_off':
      return onHandedOff(state, event.callId, event.agent, ctx);
    case 'guardrails_checked':
      return onGuardrailsChecked(state, event.on, event.results, ctx);
    case 'calls_judged':
      return onCallsJudged(state, event.verdicts, event.failure, ctx);
    case 'user_message': {
      const refusal = event.steer && !state.input.followUps ? queueSteering(state, event.text, event.sender) : onUserMessage(state, event.text, ctx, event.sender);
      if (refusal) recordIgnored(state, 'userMessage', refusal, JSON.stringify({ text: event.text }), ctx);
      return;
    }
    case 'close_requested': {
      const refusal = onCloseRequested(state, ctx);
      if (refusal) recordIgnored(state, 'close', refusal, '{}', ctx);
      return;
    }
    case 'failed':
      return failRun(state, event.errorType, event.message, ctx);
    case 'cancelled':
      state.phase = 'cancelled';
      ctx.emit(state, 'agentEnded', { status: 'cancelled', usage: state.usage });
      return;
  }
}

/**
 * The run as a pure state machine: `(state, event) → { state, effects, events (lifecycle events) }`.
 * Each event is applied, then one walk (`advance`) moves the run as far as it can go and says where it
 * stands; the phase is read from that. The workflow sends `step_wanted` to get its next step (the
 * effect), built from the same standing; it takes it and feeds every outcome back through here. Nothing
 * else changes the state, and this needs no Temporal server to test. The state is immutable (immer), so
 * a handler that throws leaves the previous state untouched.
 */
export function transition(state: RunState, event: RunEvent, env: TransitionEnv): TransitionResult {
  const events: LifecycleEvent[] = [];
  const ctx = transitionContext(env, events);
  if (event.type === 'step_wanted') return takeStep(state, env, ctx, events);
  const next = produce(state, (draft) => {
    apply(draft, event, ctx);
    draft.phase = phaseOf(draft, advance(draft, ctx));
  });
  return { state: next, effects: [], events };
}

/**
 * The next step, from where the run stands, with what it starts marked in the same transition: each
 * start is applied and the run advanced as its own event would be, so a call is started exactly when
 * its step is handed out.
 */
function takeStep(state: RunState, env: TransitionEnv, ctx: TransitionContext, events: LifecycleEvent[]): TransitionResult {
  if (!env.features) throw new StepEnvMissingError();
  // The state is already advanced (every transition ends so): this only reads where it stands.
  let standing: Standing | undefined;
  const settled = produce(state, (draft) => {
    standing = advance(draft, ctx);
  });
  const step = stepOf(settled, standing!, { now: env.now, historyFull: env.historyFull ?? false, features: env.features });
  const next = produce(settled, (draft) => {
    for (const started of startedEvents(settled, step)) {
      apply(draft, started, ctx);
      standing = advance(draft, ctx);
    }
    draft.phase = phaseOf(draft, standing!);
  });
  return { state: next, effects: [step], events };
}

/**
 * The step the workflow would take now, without taking it: a wait's condition asks this (pure: the
 * state is only read). The step `transition` hands out for `step_wanted`, from the same first pass;
 * the second pass, which marks what the step starts, is skipped (issue 37: a peek cost two passes).
 */
export function peekStep(state: RunState, env: Omit<TransitionEnv, 'features' | 'historyFull'> & StepEnv): NextStep {
  const ctx = transitionContext(env, []);
  let standing: Standing | undefined;
  const settled = produce(state, (draft) => {
    standing = advance(draft, ctx);
  });
  return stepOf(settled, standing!, { now: env.now, historyFull: env.historyFull ?? false, features: env.features });
}
