import type { LifecycleEvent } from '../../contract/lifecycle-event';

/**
 * Implement this to receive a run's lifecycle events on the worker. Handlers run after each workflow
 * activation, outside the workflow sandbox, so they may do I/O. Delivery is best effort and may repeat
 * an event when a workflow task is retried: use `event.key` to drop duplicates where it matters.
 */
export interface LifecycleHandler {
  handle(event: LifecycleEvent): void | Promise<void>;
}
