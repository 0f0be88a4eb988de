// Everything a follower reads about a run while it goes on: its status, and the model's text as it
// streams. From a worker's live relay when one is found (its URL and this run's token are in the
// latest model call's result in the history, read once before anything else, and in the heartbeat of
// a call in flight) and can be reached: then the relay pushes both, and the follower sends Temporal
// nothing. Otherwise, or once the feed drops (the follower is told why), by polling Temporal as
// before: the `status` query every `pollMs`, and while a model call may stream, its heartbeat every
// `textPollMs`; the history is read again now and then for a relay.
import type { WorkflowHandle } from '@temporalio/client';
import type { LiveRelayAddress } from '../contract/live-feed';
import type { RunPhase } from '../contract/run-records';
import type { RunStatus } from '../contract/run-status';
import { heartbeatProgress } from '../runtime/live/heartbeat-progress';
import { queryStatus } from './approval-helpers';
import { awaitOutcome, type RunOutcome } from './run-outcome';
import type { LiveTextTracker, TextDeltaEvent, ThinkingDeltaEvent } from './live-text';
import { RelayRefusedError, relayFeed } from './relay-feed';
import { relayInHistory } from './relay-lookup';

export interface RunFeedOptions {
  signal?: AbortSignal;
  /** The model's text as it streams; without it (and `onThinking`) only the status is followed. */
  onText?(delta: TextDeltaEvent): void;
  onThinking?(delta: ThinkingDeltaEvent): void;
  tracker?: LiveTextTracker;
  /** How often the status is read while no relay pushes it (default 500 ms). */
  pollMs?: number;
  /** How often the model call's heartbeat is read while no relay pushes the text (default 250 ms). */
  textPollMs?: number;
  /** How long one status query may wait for a worker. */
  queryTimeoutMs?: number;
  /** Take the feed from a worker's relay when the heartbeat names one (default true; AGENT_WATCH_RELAY=off). */
  relay?: boolean;
  /** Told why, when the relay's feed drops and the follower goes back to reading Temporal. */
  onFallback?(why: string): void;
}

/** One reading of the run's status, or why there was none this time. */
export type StatusReading = { status: RunStatus } | { error: unknown };

/** Phases in which a model call may stream, so its heartbeat is worth reading. */
const MAY_STREAM: ReadonlySet<RunPhase> = new Set(['starting', 'running', 'waiting_for_model', 'compacting']);
/** Without text to show, the heartbeat is read only to find a relay, and this rarely. */
const FIND_RELAY_EVERY_MS = 1_000;
/** A relay that could not be reached is not tried again for this long. */
const UNREACHABLE_FOR_MS = 30_000;
/**
 * While polling, the history is read again for a relay (a new worker's, after a drop): 5 s after the
 * last look, twice as long after each that found none, at most a minute (a worker without a relay).
 */
const LOOK_UP_FIRST_MS = 5_000;
const LOOK_UP_MAX_MS = 60_000;
/** Phases after which a run says no more. */
const ENDED: ReadonlySet<RunPhase> = new Set(['completed', 'max_iterations', 'guardrail_tripped', 'failed', 'cancelled']);

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export class RunFeed {
  private readonly stop = new AbortController();
  /** The latest pushed status not read yet (older ones are of no use once a newer one came). */
  private pushed?: StatusReading;
  private wake: () => void = () => undefined;
  private relayed = false;
  private phase?: RunPhase;
  /** The latest status the relay pushed. */
  private latest?: RunStatus;
  /**
   * The relay ended the feed because the run has closed: its last status is the run's last, and there
   * is nothing left to poll for (a closed run would answer each query by replaying its whole history).
   */
  private closedRun = false;
  /** The first look for a relay (in the history), done before the first poll. */
  private readonly lookedUp: Promise<void>;
  private lookedUpAt = 0;
  private lookUpEvery = LOOK_UP_FIRST_MS;
  private polledAt = 0;
  /** Relays not to try: refused for good, or unreachable until a time. */
  private readonly avoid = new Map<string, number>();
  private readonly heartbeats: Promise<void>;
  private relayDone: Promise<void> = Promise.resolve();
  /** The status query in flight, if any: close() waits for it (see close). */
  private polling: Promise<unknown> = Promise.resolve();
  private endIsOurs: () => void = () => undefined;
  /** See endToWatch. */
  private readonly ownEnd = new Promise<void>((resolve) => (this.endIsOurs = resolve));

  constructor(
    private readonly handle: WorkflowHandle,
    private readonly options: RunFeedOptions = {},
  ) {
    options.signal?.addEventListener('abort', () => this.close(), { once: true });
    if (options.signal?.aborted) this.stop.abort();
    this.lookedUp = this.lookUp(true);
    // No relay found at first: the follower watches for the run's end itself from the start.
    void this.lookedUp.then(() => !this.relayed && this.endIsOurs());
    // Not after the look in the history: that read may be slow, and a short call's thinking is only
    // seen while it streams.
    this.heartbeats = this.readHeartbeats();
  }

  /** Where the status and text come from now. */
  get via(): 'relay' | 'poll' {
    return this.relayed ? 'relay' : 'poll';
  }

  /**
   * Resolves when the follower must watch for the run's end itself (a long poll of its own): at once
   * when no relay feeds it, or the relay does not say it watches the end (an older one); else once the
   * relay's feed has said the run ended, or has stopped. While a relay that watches the end feeds a
   * hundred followers, Temporal holds one long poll for them, the relay's, not a hundred.
   */
  endToWatch(): Promise<void> {
    return this.ownEnd;
  }

  /**
   * How the run ended, by a long poll of the follower's own that starts only once the end is its to
   * watch (endToWatch); `signal` cancels it, so no call is left retrying on a connection about to close.
   */
  outcome(signal: AbortSignal): Promise<RunOutcome> {
    return this.ownEnd.then(() => this.handle.client.withAbortSignal(signal, () => awaitOutcome(this.handle)));
  }

  /** The next status: pushed by the relay when it changed, or read by polling; undefined once closed. */
  async next(): Promise<StatusReading | undefined> {
    await this.lookedUp;
    while (!this.stop.signal.aborted) {
      const pushed = this.pushed;
      this.pushed = undefined;
      if (pushed) return pushed;
      const due = this.polledAt + (this.options.pollMs ?? 500) - Date.now();
      const polling = !this.relayed && !this.closedRun;
      if (polling && due <= 0) return this.poll();
      // Woken by a push, by the relay going away, or when the next poll is due.
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        // close() wakes it too; a listener per wait on the stop signal would pile up, one per push.
        if (polling) void sleep(due, this.stop.signal).then(resolve);
      });
    }
    return undefined;
  }

  /**
   * The run's last status as the relay pushed it, once the run has ended: waits up to `waitMs` for it
   * (the run's end may be known a moment before the push). Undefined when the feed is not the relay's,
   * or the push did not come: then the caller asks Temporal.
   */
  async endedStatus(waitMs: number): Promise<RunStatus | undefined> {
    const final = () => this.latest !== undefined && (this.closedRun || ENDED.has(this.latest.phase));
    const deadline = Date.now() + waitMs;
    while (this.relayed && !final() && Date.now() < deadline) await sleep(20, this.stop.signal);
    return final() ? this.latest : undefined;
  }

  /** Stops reading (the run goes on). */
  async close(): Promise<void> {
    this.stop.abort();
    this.wake();
    // Every call of ours is over before the caller closes the connection: the client retries a call
    // the server turned away (RESOURCE_EXHAUSTED, under load) from a timer, and a retry on a closed
    // connection throws where nobody can catch it (a host of watchers crashed so in bench:live-output).
    await Promise.all([this.lookedUp, this.heartbeats, this.relayDone, this.polling]);
  }

  private async poll(): Promise<StatusReading> {
    this.polledAt = Date.now();
    try {
      const query = queryStatus(this.handle, this.options.queryTimeoutMs ?? 10_000);
      this.polling = query.catch(() => undefined);
      const status = await query;
      this.phase = status.phase;
      return { status };
    } catch (error) {
      return { error };
    }
  }

  /**
   * The relay the run's history names, followed when it may be tried. The first time, the heartbeat
   * too: what a call in flight has streamed is shown first (the relay keeps only a run's latest call,
   * so a call that ends before the feed is open would otherwise lose its thinking), and its relay is
   * that call's.
   */
  private async lookUp(first = false): Promise<void> {
    if (this.options.relay === false || this.stop.signal.aborted) return;
    this.lookedUpAt = Date.now();
    const showsText = this.options.onText !== undefined || this.options.onThinking !== undefined;
    const [inHistory, progress] = await Promise.all([
      relayInHistory(this.handle).catch(() => undefined),
      first && showsText ? this.handle.describe().then((d) => heartbeatProgress(d, this.handle.client.options.loadedDataConverter)).catch(() => undefined) : undefined,
    ]);
    if (progress) this.show(() => this.options.tracker?.thinkingFromProgress(progress), () => this.options.tracker?.fromProgress(progress));
    const relay = progress?.relay ?? inHistory;
    if (relay && !this.relayed && !this.stop.signal.aborted && this.mayTry(relay)) {
      this.lookUpEvery = LOOK_UP_FIRST_MS;
      this.follow(relay);
    } else if (!first) this.lookUpEvery = Math.min(LOOK_UP_MAX_MS, this.lookUpEvery * 2);
  }

  /** Reads the model call's heartbeat while no relay feeds this follower: its text, and where a relay is. */
  private async readHeartbeats(): Promise<void> {
    const showsText = this.options.onText !== undefined || this.options.onThinking !== undefined;
    const every = showsText ? (this.options.textPollMs ?? 250) : FIND_RELAY_EVERY_MS;
    // The first look (lookUp) has just read the heartbeat.
    if (this.options.relay !== false) await sleep(every, this.stop.signal);
    while (!this.stop.signal.aborted) {
      if (this.closedRun) return;
      if (!this.relayed && Date.now() - this.lookedUpAt >= this.lookUpEvery) await this.lookUp();
      if (!this.relayed && (this.phase === undefined || MAY_STREAM.has(this.phase))) {
        const progress = await this.handle.describe().then((d) => heartbeatProgress(d, this.handle.client.options.loadedDataConverter)).catch(() => undefined);
        // What this heartbeat holds is shown first, also when it names a relay: the relay keeps only a
        // run's latest call, so a call that ends before the feed is open would otherwise lose its
        // thinking. The feed then resumes from what was shown.
        if (progress && showsText) this.show(() => this.options.tracker?.thinkingFromProgress(progress), () => this.options.tracker?.fromProgress(progress));
        if (progress?.relay && this.options.relay !== false && this.mayTry(progress.relay)) this.follow(progress.relay);
      }
      await sleep(every, this.stop.signal);
    }
  }

  private mayTry(relay: LiveRelayAddress): boolean {
    const until = this.avoid.get(`${relay.url} ${relay.token}`);
    return until === undefined || until < Date.now();
  }

  /** Takes the feed from the relay until it ends; then polling takes over again. */
  private follow(relay: LiveRelayAddress): void {
    this.relayed = true;
    const { tracker } = this.options;
    this.relayDone = (async () => {
      let why = 'the relay closed it';
      try {
        for await (const event of relayFeed(relay, this.handle.workflowId, tracker?.position(), this.handle.client.options.loadedDataConverter, this.stop.signal)) {
          if (event.type === 'open') {
            if (!event.endsOnClose) this.endIsOurs();
          } else if (event.type === 'status') {
            this.phase = event.status.phase;
            this.latest = event.status;
            this.pushed = { status: event.status };
            // The run says it has ended: its outcome is a short read away.
            if (ENDED.has(event.status.phase)) this.endIsOurs();
            this.wake();
          } else if (event.type === 'text') {
            const delta = tracker?.fromPiece(event.piece);
            if (delta?.type === 'text_delta') this.options.onText?.(delta);
            else if (delta) this.options.onThinking?.(delta);
          } else {
            why = event.end.message;
            this.closedRun = event.end.reason === 'closed';
          }
        }
      } catch (error) {
        why = error instanceof Error ? error.message : String(error);
        // A refusal holds for this token; an unreachable relay may come back.
        this.avoid.set(`${relay.url} ${relay.token}`, error instanceof RelayRefusedError ? Infinity : Date.now() + UNREACHABLE_FOR_MS);
      } finally {
        // Once the run has ended the relay has nothing more to say; a drop before then is worth a line.
        const ended = this.closedRun || (this.latest !== undefined && ENDED.has(this.latest.phase));
        if (!this.stop.signal.aborted && !ended) this.options.onFallback?.(`The live feed from ${relay.url} dropped (${why}); reading Temporal instead.`);
        this.endIsOurs();
        this.relayed = false;
        this.polledAt = 0;
        this.wake();
      }
    })();
  }

  /** Thinking comes before the text it leads to, so it is handed out first. */
  private show(thinking: () => ThinkingDeltaEvent | undefined, text: () => TextDeltaEvent | undefined): void {
    const thought = this.options.onThinking ? thinking() : undefined;
    if (thought && !this.stop.signal.aborted) this.options.onThinking!(thought);
    const delta = this.options.onText ? text() : undefined;
    if (delta && !this.stop.signal.aborted) this.options.onText!(delta);
  }
}
