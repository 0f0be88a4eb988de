import { proxySinks, workflowInfo, type Sinks } from '@temporalio/workflow';
import type { LifecycleEvent, LifecycleEventName } from '../lifecycle/lifecycle-event';
import { pushBounded, StateLimits, type RunState } from './run-state';

/** The sink the worker implements (see src/lifecycle/lifecycle-sink.ts). */
export interface LifecycleSinks extends Sinks {
  lifecycle: { emit(event: LifecycleEvent): void };
}

const { lifecycle } = proxySinks<LifecycleSinks>();

/**
 * Records an event in the run's bounded recent-events list (for the status query) and hands it to
 * the worker's handlers. Sinks are not called during replay, so a handler sees each event once per
 * live execution; the `key` lets handlers drop the rare duplicate of a retried workflow task.
 */
export function emit(state: RunState, name: LifecycleEventName, data: Record<string, unknown> = {}, step = ''): void {
  const info = workflowInfo();
  const event: LifecycleEvent = {
    name,
    at: new Date().toISOString(),
    workflowId: info.workflowId,
    runId: info.runId,
    agent: state.input.agent,
    iteration: state.iteration,
    key: `${info.workflowId}/${state.chain.link}/${state.iteration}/${name}/${step}`,
    data,
  };
  pushBounded(state.events, event, StateLimits.events);
  lifecycle.emit(event);
}
