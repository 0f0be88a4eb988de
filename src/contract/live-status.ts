import { defineQuery, type Sinks } from '@temporalio/workflow';
import type { RunStatus } from './run-status';

/**
 * How a worker's live relay learns a run's status without asking for it at every change (issue 37):
 * one `watchStatus` query arms the run, and for a while after it the run hands each status it moves
 * to (after every transition, changed or not: the relay drops repeats) to the `liveStatus` sink of the
 * worker that runs it. A sink writes nothing to the history, and the run is not armed again when its
 * history replays, so a watched run and an unwatched one make the same commands. Without the sink's
 * pushes (a run on another worker, a bundle from before this query, a window that ran out) the relay
 * reads the status by query, as before.
 */

/**
 * The `status` query's answer; and the run pushes its statuses to `liveStatus` until WATCH_STATUS_MS of
 * workflow time have passed since its first change after this query. A contract name: relays of other
 * versions call it, and fall back to `status` where a run does not know it.
 */
export const watchStatusQuery = defineQuery<RunStatus>('watchStatus');

/** How long one `watchStatus` keeps a run pushing, in workflow time from its first change after the query. */
export const WATCH_STATUS_MS = 15_000;

/** The sink the armed run pushes through; workers register it (a no-op where no relay listens). */
export interface LiveStatusSinks extends Sinks {
  liveStatus: { changed(status: RunStatus): void };
}
