/** One watcher's connection: the relay writes frames to it (one or several at once), and closes it. */
export interface Subscriber {
  send(frames: string | Buffer): void;
  close(): void;
}

/**
 * At most one write per watcher this often: a frame made longer than this after the last write goes out
 * at once, frames made sooner wait for the window's end and go out together. A write to a socket costs
 * about the same for one frame as for several, and it is paid once per watcher: with 100 watchers,
 * writing every piece of text as it came was the relay's largest cost to the run's worker
 * (bench:live-output, issue 37). Text that streams slowly is not delayed; fast text by at most this much.
 * 100 rather than 40: with 100 watchers, fewer writes cost the run's worker less CPU per model request
 * (bench/results/live-output.md), and a delay of 100 ms at most stays within the 150 ms p50 target.
 */
export const FLUSH_MS = 100;

/**
 * The watchers a run's feed has joined, and the frames made for them and not written yet (see FLUSH_MS).
 * `enqueue` runs a flush that waited for its window in the run's sending order, after the frames before it.
 */
export class FeedWrites {
  readonly subscribers = new Set<Subscriber>();
  private unsent: string[] = [];
  private timer?: NodeJS.Timeout;
  private flushedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly enqueue: (task: () => Promise<void>) => void) {}

  /** A frame for every watcher: written now after a quiet while, else with the others at the window's end. */
  add(frame: string): void {
    this.unsent.push(frame);
    if (this.timer) return;
    const wait = this.flushedAt + FLUSH_MS - performance.now();
    if (wait <= 0) return this.flush();
    this.timer = setTimeout(() => this.enqueue(async () => this.flush()), wait);
    this.timer.unref();
  }

  /** Writes the unsent frames to every watcher, once each. */
  flush(): void {
    this.dispose();
    if (this.unsent.length === 0) return;
    const frames = Buffer.from(this.unsent.join(''));
    this.unsent = [];
    this.flushedAt = performance.now();
    for (const subscriber of this.subscribers) subscriber.send(frames);
  }

  /** Stops the timer; unsent frames stay until the next flush. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
