import type { LiveFeedEventName, LiveFeedEvents, LiveFeedFrom } from '../../contract/live-feed';
import type { RunPhase } from '../../contract/run-records';
import type { RunStatus } from '../../contract/run-status';
import { FeedWrites, type Subscriber } from './feed-writes';
import { unforwardedPieces, type HeartbeatProgress } from './heartbeat-progress';
import type { LiveCalls } from './live-calls';

export { FLUSH_MS, type Subscriber } from './feed-writes';

export interface WatchedRunDeps {
  workflowId: string;
  calls: LiveCalls;
  /**
   * The run's status by query (`watchStatus`, which also arms the run to push what follows: see
   * `pushed`); rejects with WorkflowNotFoundError for a run that does not exist.
   */
  queryStatus(): Promise<RunStatus>;
  /** The latest heartbeat of the run's model call, wherever it streams. */
  readProgress(): Promise<HeartbeatProgress | undefined>;
  frame<N extends LiveFeedEventName>(name: N, value: LiveFeedEvents[N]): Promise<string>;
  /**
   * Resolves with true once the run has closed, however it closed (following continue-as-new), with
   * false when `signal` aborted first or the run is not found. One such long poll per watched run stands
   * in for every watcher's own.
   */
  awaitClose(signal: AbortSignal): Promise<boolean>;
  /** The run was not found, or has closed: every subscriber was told and closed. */
  gone(): void;
}

/** Phases in which a model call may be streaming. */
const MAY_STREAM: ReadonlySet<RunPhase> = new Set(['starting', 'running', 'waiting_for_model', 'compacting']);
const ENDED: ReadonlySet<RunPhase> = new Set(['completed', 'max_iterations', 'guardrail_tripped', 'failed', 'cancelled']);
/** The status is read again this often while the run moves, besides after each of its lifecycle events seen here. */
const STATUS_EVERY_MS = 1_000;
/** While it waits (for a person, a message), less and less often, up to this. */
const STATUS_PARKED_MAX_MS = 5_000;
/**
 * While the run pushes its statuses (it runs on this worker, armed by the last query), the status is read
 * only this often: to arm it again well within its window (WATCH_STATUS_MS), not to learn anything.
 */
const REARM_EVERY_MS = 5_000;
/** A run's first watcher waits this long at most for its status before it gets the text. */
const FIRST_STATUS_WAIT_MS = 2_000;
/**
 * Lifecycle events come in bursts (a reply, its tool calls starting, ...): the status is read once this
 * long after the first of a burst, so a burst costs the run's worker one query task, not one per event.
 */
const CHANGE_SETTLE_MS = 50;
/** How often the heartbeat is read while a model call streams on another worker. */
const REMOTE_TEXT_EVERY_MS = 250;
/**
 * One run as the relay serves it to its watchers, however many: its status as the run pushes it (once a
 * `watchStatus` query armed it, while it runs on this worker), or else one status query per change
 * (after a lifecycle event of the run on this worker, or on a slow timer for what happens elsewhere),
 * sent to all; the model's text pushed as it streams on this worker, or read from the heartbeat while
 * it streams on another. Frames go out in the order they were made.
 */
export class WatchedRun {
  private readonly writes = new FeedWrites((task) => this.enqueue(task));
  private readonly subscribers = this.writes.subscribers;
  /** Watchers that came and are not served yet (waiting for the first status), with what they have. */
  private readonly joining = new Map<Subscriber, LiveFeedFrom | undefined>();
  private status?: { json: string; phase: RunPhase; value: RunStatus };
  private sending: Promise<void> = Promise.resolve();
  private querying = false;
  private again = false;
  private quiet = 0;
  private statusTimer?: NodeJS.Timeout;
  /** When `statusTimer` fires (performance.now() time). */
  private statusDue = 0;
  /** When the last query was sent, and when the run last pushed its status. */
  private queriedAt = Number.NEGATIVE_INFINITY;
  private pushedAt = Number.NEGATIVE_INFINITY;
  private changeTimer?: NodeJS.Timeout;
  /** The run's latest pushed status, taken when `pushTimer` fires. */
  private latestPush?: RunStatus;
  private pushTimer?: NodeJS.Timeout;
  private readonly textTimer: NodeJS.Timeout;
  private readonly forwarded = new Map<string, number>();
  private readonly unlisten: () => void;
  private disposed = false;
  /** close() was called: its task, queued after everything before it, ends every feed. */
  private ending = false;
  private statusKnown: () => void = () => undefined;
  private readonly firstStatus = new Promise<void>((resolve) => (this.statusKnown = resolve));
  /** Stops the long poll for the run's end (dispose). */
  private readonly watchingEnd = new AbortController();

  constructor(private readonly deps: WatchedRunDeps) {
    this.unlisten = deps.calls.listen(deps.workflowId, (piece) => this.broadcast('text', piece));
    this.textTimer = setInterval(() => void this.forwardRemoteText(), REMOTE_TEXT_EVERY_MS);
    this.textTimer.unref();
    void deps.awaitClose(this.watchingEnd.signal).then(
      (closed) => (closed ? this.runClosed() : undefined),
      () => undefined,
    );
  }

  /**
   * Adds a watcher: it gets the status, then the current call's text from `from`, then what comes. A
   * run's first watcher waits for its first status (a little while at most), so it knows the run
   * before the text; text that streams meanwhile reaches it from its offset.
   */
  add(subscriber: Subscriber, from: LiveFeedFrom | undefined): void {
    this.joining.set(subscriber, from);
    this.refresh();
    const known = this.status ? Promise.resolve() : Promise.race([this.firstStatus, new Promise((resolve) => setTimeout(resolve, FIRST_STATUS_WAIT_MS).unref())]);
    void known.then(() => this.enqueue(async () => {
      if (!this.joining.delete(subscriber)) return; // It left meanwhile, or the feed closed.
      // Dropped without an end to send (the relay let go of the run): nothing more will come.
      if (this.disposed && !this.ending) return subscriber.close();
      const frames = await this.joinFrames(from);
      // What is still unsent goes to the watchers before this one: its text from `from` already holds it.
      this.writes.flush();
      subscriber.send(frames);
      this.subscribers.add(subscriber);
    }));
  }

  /** What a joining watcher gets first: the status, then the current call's text from `from`. */
  private async joinFrames(from: LiveFeedFrom | undefined): Promise<string> {
    const frames = await Promise.all([
      ...(this.status ? [this.deps.frame('status', this.status.value)] : []),
      ...this.deps.calls.missing(this.deps.workflowId, from).map((piece) => this.deps.frame('text', piece)),
    ]);
    return frames.join('');
  }

  /** Removes a watcher; returns true when it was the last one (the relay then drops this run). */
  remove(subscriber: Subscriber): boolean {
    this.joining.delete(subscriber);
    this.subscribers.delete(subscriber);
    return this.subscribers.size === 0 && this.joining.size === 0;
  }

  /** Something happened in the run (a lifecycle event on this worker): read its status again. */
  changed(): void {
    this.quiet = 0;
    if (this.changeTimer || this.disposed) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      this.refresh();
    }, CHANGE_SETTLE_MS);
    this.changeTimer.unref();
  }

  /**
   * The run pushed its status: it runs on this worker and a query armed it. That status follows every
   * transition of the run, right after the lifecycle events of the same transition (`changed`), so it
   * stands in for the query those would have asked for; while pushes come, the status is queried only
   * to arm the run again (REARM_EVERY_MS).
   */
  pushed(status: RunStatus): void {
    if (this.disposed) return;
    this.pushedAt = performance.now();
    clearTimeout(this.changeTimer);
    this.changeTimer = undefined;
    // A burst of steps pushes a status each: the last one goes out, once, CHANGE_SETTLE_MS after the
    // first, as a read after the burst did. Taking each at once put the encoding and a write to every
    // watcher on the path of the step that follows (an approved call's start: bench:live-output).
    this.latestPush = status;
    if (!this.pushTimer) {
      this.pushTimer = setTimeout(() => {
        this.pushTimer = undefined;
        if (this.latestPush) this.took(this.latestPush);
        this.latestPush = undefined;
      }, CHANGE_SETTLE_MS);
      this.pushTimer.unref();
    }
    if (!this.querying) this.schedule();
  }

  /** Ends every watcher's feed with `end` and stops reading. */
  close(end?: LiveFeedEvents['end']): Promise<void> {
    this.ending = true;
    if (end) this.broadcast('end', end);
    this.enqueue(async () => {
      this.writes.flush();
      // A watcher still joining gets what a joined one got, and the end: a late watcher of a run that
      // has just closed learns how it ended rather than seeing its feed cut.
      for (const [subscriber, from] of this.joining) {
        if (end && this.status) subscriber.send((await this.joinFrames(from)) + (await this.deps.frame('end', end)));
        subscriber.close();
      }
      for (const subscriber of this.subscribers) subscriber.close();
      this.subscribers.clear();
      this.joining.clear();
    });
    this.dispose();
    return this.sending;
  }

  dispose(): void {
    this.disposed = true;
    this.watchingEnd.abort();
    this.unlisten();
    clearInterval(this.textTimer);
    clearTimeout(this.statusTimer);
    clearTimeout(this.changeTimer);
    clearTimeout(this.pushTimer);
    this.writes.dispose();
  }

  /** At most one query in flight; changes meanwhile ask for one more after it. */
  private refresh(): void {
    if (this.disposed) return;
    if (this.querying) {
      this.again = true;
      return;
    }
    this.querying = true;
    clearTimeout(this.statusTimer);
    this.statusTimer = undefined;
    const sentAt = (this.queriedAt = performance.now());
    void this.deps.queryStatus().then(
      // A push that came meanwhile is at least as new: a run pushes after every transition once armed,
      // and its worker hands over an activation's pushes before it answers a later query.
      (status) => (this.pushedAt > sentAt ? undefined : this.took(status)),
      (error: unknown) => this.failed(error),
    ).finally(() => {
      this.querying = false;
      if (this.again) {
        this.again = false;
        this.refresh();
      } else this.schedule();
    });
  }

  private took(status: RunStatus): void {
    const json = JSON.stringify(status);
    if (json === this.status?.json) {
      this.quiet += 1;
      return;
    }
    this.quiet = 0;
    this.status = { json, phase: status.phase, value: status };
    this.statusKnown();
    this.broadcast('status', status);
  }

  /**
   * The run has closed: its last status goes out (a pushed one still waiting is taken now; a run that was
   * terminated or timed out says nothing more itself, so it is read once), then the end. A later watcher
   * starts afresh and learns the same from the closed run.
   */
  private async runClosed(): Promise<void> {
    if (this.disposed) return;
    clearTimeout(this.pushTimer);
    this.pushTimer = undefined;
    if (this.latestPush) this.took(this.latestPush);
    this.latestPush = undefined;
    if (!this.status || !ENDED.has(this.status.phase)) await this.deps.queryStatus().then((status) => this.took(status), () => undefined);
    if (this.disposed) return;
    await this.close({ reason: 'closed', message: `Run ${this.deps.workflowId} has closed.` });
    this.deps.gone();
  }

  private failed(error: unknown): void {
    if ((error as Error | undefined)?.name !== 'WorkflowNotFoundError') return; // Read again on the next tick.
    void this.close({ reason: 'not_found', message: `No run ${this.deps.workflowId} in this namespace.` }).then(() => this.deps.gone());
  }

  private schedule(): void {
    if (this.disposed || (this.status && ENDED.has(this.status.phase))) return;
    const parked = this.status !== undefined && !MAY_STREAM.has(this.status.phase);
    const due =
      this.pushedAt > this.queriedAt
        ? this.queriedAt + REARM_EVERY_MS
        : performance.now() + (parked ? Math.min(STATUS_PARKED_MAX_MS, STATUS_EVERY_MS * 2 ** this.quiet) : STATUS_EVERY_MS);
    // Every push asks again; only the first after a query moves the timer.
    if (this.statusTimer && due === this.statusDue) return;
    clearTimeout(this.statusTimer);
    this.statusDue = due;
    this.statusTimer = setTimeout(() => this.refresh(), Math.max(0, due - performance.now()));
    this.statusTimer.unref();
  }

  /** A call that streams on another worker: its text from the heartbeat, only what was not forwarded yet. */
  private async forwardRemoteText(): Promise<void> {
    if (this.disposed || this.subscribers.size === 0 || this.deps.calls.streaming(this.deps.workflowId)) return;
    if (!this.status || !MAY_STREAM.has(this.status.phase)) return;
    const progress = await this.deps.readProgress().catch(() => undefined);
    if (progress) for (const piece of unforwardedPieces(progress, this.forwarded)) this.broadcast('text', piece);
  }

  private broadcast<N extends LiveFeedEventName>(name: N, value: LiveFeedEvents[N]): void {
    this.enqueue(async () => {
      if (this.subscribers.size === 0) return;
      this.writes.add(await this.deps.frame(name, value));
    });
  }

  private enqueue(task: () => Promise<void>): void {
    this.sending = this.sending.then(task).catch((error: unknown) => console.error(`live relay: run ${this.deps.workflowId}:`, error));
  }
}
