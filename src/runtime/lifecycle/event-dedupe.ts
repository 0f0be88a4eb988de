/**
 * Remembers the keys of recent events so a handler can drop the duplicate a retried workflow task
 * may deliver. Bounded: the oldest keys are forgotten first, because a duplicate arrives within
 * moments of the original, never hours later.
 */
export class EventDeduper {
  private readonly seen = new Set<string>();

  constructor(private readonly capacity = 10_000) {}

  /** True the first time a key is offered, false for every repeat still remembered. */
  firstTime(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    if (this.seen.size > this.capacity) {
      const oldest = this.seen.values().next().value as string;
      this.seen.delete(oldest);
    }
    return true;
  }
}
