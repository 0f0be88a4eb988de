import { CancellationScope, sleep } from '@temporalio/workflow';

/** A running timer of one deadline; `fired` turns true when the deadline passes. */
export interface Deadline {
  readonly until: number;
  fired: boolean;
}

/**
 * The timer of the wait the loop is in. A wait that a message interrupts and the loop enters again
 * with the same deadline keeps its timer: a new timer on every message would be a command for each,
 * and would move nothing. A different deadline (or a step that is no wait) cancels it.
 */
export class DeadlineTimer {
  private current: (Deadline & { scope?: CancellationScope }) | undefined;

  /** The timer for `until`: the one running when it has that deadline, else a new one. */
  arm(until: number, summary: string): Deadline {
    if (this.current && Object.is(this.current.until, until)) return this.current;
    this.disarm();
    const ms = until - Date.now();
    const deadline: Deadline & { scope?: CancellationScope } = { until, fired: ms <= 0 };
    // A deadline that is no number (a record without its time) never passes: the wait ends by a message.
    if (!deadline.fired && Number.isFinite(ms)) {
      const scope = new CancellationScope();
      deadline.scope = scope;
      // A cancelled timer rejects; that is the point of cancelling it, not a failure.
      scope.run(() => sleep(ms, { summary })).then(
        () => void (deadline.fired = true),
        () => undefined,
      );
    }
    this.current = deadline;
    return deadline;
  }

  /** Cancels the running timer, if any (the loop left the wait). */
  disarm(): void {
    const current = this.current;
    this.current = undefined;
    if (current && !current.fired) current.scope?.cancel();
  }
}
