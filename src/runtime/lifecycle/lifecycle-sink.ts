import type { InjectedSinks } from '@temporalio/worker';
import { EventDeduper } from './event-dedupe';
import type { LifecycleEvent, LifecycleSinks } from '../../contract/lifecycle-event';
import type { LifecycleHandler } from './lifecycle-handler';

export interface LifecycleSinkOptions {
  /**
   * Drops an event whose key was already delivered (default: a fresh deduper per worker). The sink
   * itself is at-least-once: a workflow task that fails and is retried runs its activation again and
   * hands over its events again. `false` passes that raw stream through (tests use it to bound it).
   */
  deduper?: EventDeduper | false;
}

/**
 * The worker side of the lifecycle sink. `callDuringReplay: false` (the default, stated here on
 * purpose) keeps a worker that replays a run's history from re-firing its events.
 */
export function lifecycleSinks(handlers: readonly LifecycleHandler[], options: LifecycleSinkOptions = {}): InjectedSinks<LifecycleSinks> {
  const deduper = options.deduper === false ? undefined : (options.deduper ?? new EventDeduper());
  return {
    lifecycle: {
      emit: {
        fn: (_info, event: LifecycleEvent) => {
          if (deduper && !deduper.firstTime(event.key)) return;
          for (const handler of handlers) {
            try {
              const pending = handler.handle(event);
              if (pending) pending.catch((error) => console.error(`lifecycle handler failed on ${event.name}:`, error));
            } catch (error) {
              console.error(`lifecycle handler failed on ${event.name}:`, error);
            }
          }
        },
        callDuringReplay: false,
      },
    },
  };
}
