import type { InjectedSinks } from '@temporalio/worker';
import type { LifecycleSinks } from '../workflows/run-driver';
import type { LifecycleEvent } from './lifecycle-event';
import type { LifecycleHandler } from './lifecycle-handler';

/**
 * The worker side of the lifecycle sink. `callDuringReplay: false` (the default, stated here on
 * purpose) keeps a worker that replays a run's history from re-firing its events.
 */
export function lifecycleSinks(handlers: readonly LifecycleHandler[]): InjectedSinks<LifecycleSinks> {
  return {
    lifecycle: {
      emit: {
        fn: (_info, event: LifecycleEvent) => {
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
