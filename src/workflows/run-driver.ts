import { proxySinks, setCurrentDetails, upsertSearchAttributes, workflowInfo, type Sinks } from '@temporalio/workflow';
import type { LifecycleEvent } from '../lifecycle/lifecycle-event';
import type { RunEvent } from './run-machine/run-events';
import type { RunState } from './run-machine/run-state';
import { runDetails } from './run-machine/run-details';
import { transition } from './run-machine/transition';
import { AgentStatusKey } from './search-attributes';

/** The sink the worker implements (see src/lifecycle/lifecycle-sink.ts). */
export interface LifecycleSinks extends Sinks {
  lifecycle: { emit(event: LifecycleEvent): void };
}

const { lifecycle } = proxySinks<LifecycleSinks>();

/**
 * Holds the run's state and is the only way to change it: every outcome goes through `dispatch`,
 * which runs the pure transition and then publishes what follows from the new state, in one place:
 * the `AgentStatus` search attribute when the phase changed, the Web UI's current details, and the
 * lifecycle events for the worker's handlers (a sink: not re-fired when a history is replayed).
 */
export class RunDriver {
  /** Bumped by every dispatch, so a wait can tell that something happened. */
  version = 0;

  constructor(public state: RunState) {}

  dispatch(event: RunEvent): void {
    const before = this.state;
    const { state, emitted } = transition(before, event, { now: Date.now(), runId: workflowInfo().runId });
    this.state = state;
    this.version += 1;
    if (state.phase !== before.phase) upsertSearchAttributes([{ key: AgentStatusKey, value: state.phase }]);
    setCurrentDetails(runDetails(state));
    for (const e of emitted) lifecycle.emit(e);
  }
}
