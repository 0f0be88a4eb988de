import { proxySinks } from '@temporalio/workflow';
import { WATCH_STATUS_MS, type LiveStatusSinks } from '../contract/live-status';
import type { RunState } from '../core/machine/run-state';
import { toStatus } from '../core/machine/run-status';

const { liveStatus } = proxySinks<LiveStatusSinks>();

/**
 * Whether a relay watches the run: armed by the `watchStatus` query, it pushes the run's status after
 * each transition until WATCH_STATUS_MS of workflow time have passed since the first transition after
 * the arming. The window starts there, not at the query, because a query sees the clock of the run's
 * last activation, which for a parked run may be hours old. It lives in the workflow's memory only: a
 * worker that replays the history starts unarmed, and nothing here makes a command (contract/live-status.ts).
 */
export class StatusWatch {
  private armed = false;
  private since: number | undefined;

  /** A `watchStatus` query came: push from the next transition on. */
  arm(): void {
    this.armed = true;
    this.since = undefined;
  }

  /** After a transition: the new status to the worker's relay, while armed. */
  moved(state: RunState): void {
    if (!this.armed) return;
    const now = Date.now();
    this.since ??= now;
    if (now - this.since > WATCH_STATUS_MS) {
      this.armed = false;
      return;
    }
    liveStatus.changed(toStatus(state));
  }
}
