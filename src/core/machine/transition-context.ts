import type { LifecycleEvent, LifecycleEventData, LifecycleEventName, LifecycleEventOf } from '../../contract/lifecycle-event';
import type { StepFeatures } from './step-env';
import { pushBounded, StateLimits, type RunState } from './run-state';

/** What a transition may know besides the state and the event: the time, and which execution it is. */
export interface TransitionEnv {
  /** Workflow time, epoch milliseconds (deterministic inside a workflow). */
  now: number;
  runId: string;
  /** The namespace and first execution's run id, which signatures are bound to (tests may leave them out). */
  namespace?: string;
  firstRunId?: string;
  /** For `step_wanted` only: the history is large enough to continue as new, and this execution's behaviour (patches). */
  historyFull?: boolean;
  features?: StepFeatures;
  /**
   * Whether this execution judges calls by issue 30's rules (patch `contained-calls`): a protected
   * write asks a person in every mode, acceptEdits lets only the built-in file tools write. False
   * while a history from before them replays; absent (pure tests) means true.
   */
  containedCalls?: boolean;
  /**
   * Patch `rule-decision-lines` (issue 34): a call that may have a side effect and that a rule, a
   * remembered "always" or the mode lets run unasked gets its own decision (`policy_allow`, saying
   * what decided), so its audit line is written before the call is scheduled. False while older
   * histories replay; absent (pure tests) means false.
   */
  allowedCallLines?: boolean;
}

/** The facts a signature check needs, from the env (a pure test's env defaults to namespace `default`). */
export function signingEnvOf(env: TransitionEnv): { now: number; namespace: string; firstRunId: string } {
  return { now: env.now, namespace: env.namespace ?? 'default', firstRunId: env.firstRunId ?? env.runId };
}

/**
 * Handed to every transition handler: the time, and `emit`, which records a lifecycle event in the
 * state's recent-events list and collects it for the workflow to hand to the worker's handlers.
 */
export interface TransitionContext extends TransitionEnv {
  at: string;
  /** Typed by name: the data must be the one that event carries (contract/lifecycle-event.ts). */
  emit<N extends LifecycleEventName>(state: RunState, name: N, data: LifecycleEventData[N], step?: string): void;
}

export function transitionContext(env: TransitionEnv, events: LifecycleEvent[]): TransitionContext {
  const at = new Date(env.now).toISOString();
  return {
    ...env,
    at,
    emit<N extends LifecycleEventName>(state: RunState, name: N, data: LifecycleEventData[N], step = '') {
      const one: LifecycleEventOf<N> = {
        name,
        at,
        workflowId: state.workflowId,
        runId: env.runId,
        agent: state.input.agent,
        iteration: state.iteration,
        // Stable across a retried workflow task, so handlers can drop the duplicate delivery.
        key: `${state.workflowId}/${state.chain.link}/${state.iteration}/${name}/${step}`,
        data,
      };
      // TypeScript cannot see that an event of one generic name is a member of the union by name.
      const event = one as LifecycleEvent;
      pushBounded(state.events, event, StateLimits.events);
      events.push(event);
    },
  };
}
