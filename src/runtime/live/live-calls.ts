import type { LiveFeedFrom, LivePiece } from '../../contract/live-feed';

/**
 * How much of one call's text (and of its thinking) the relay keeps for subscribers who come late:
 * about a megabyte, far more than a reply's text. Past it the start is dropped, and a subscriber who
 * asks for it gets the rest marked as a gap.
 */
export const LIVE_CALL_CHARS = 1_000_000;

/** A finished call's text stays this long, so a subscriber who arrives just after it ended still gets it. */
const KEEP_ENDED_MS = 30_000;

/** The text of one kind (text or thinking) of one call: the last `LIVE_CALL_CHARS` characters, and how many came in all. */
class PieceBuffer {
  private kept = '';
  private dropped = 0;

  append(delta: string): number {
    const offset = this.dropped + this.kept.length;
    this.kept += delta;
    if (this.kept.length > LIVE_CALL_CHARS) {
      const cut = this.kept.length - LIVE_CALL_CHARS;
      this.kept = this.kept.slice(cut);
      this.dropped += cut;
    }
    return offset;
  }

  /** What a subscriber who has `have` characters is missing (from the oldest kept one if it asks for less). */
  since(have: number): { offset: number; text: string } | undefined {
    const total = this.dropped + this.kept.length;
    if (have >= total) return undefined;
    const offset = Math.max(have, this.dropped);
    return { offset, text: this.kept.slice(offset - this.dropped) };
  }
}

export interface LiveCallKey {
  workflowId: string;
  iteration: number;
  attempt: number;
}

class LiveCall {
  readonly text = new PieceBuffer();
  readonly thinking = new PieceBuffer();
  ended = false;
  constructor(readonly key: LiveCallKey) {}
}

/** What the model activity writes into while it streams (see activities/call-model.ts). */
export interface LiveCallWriter {
  write(kind: LivePiece['kind'], delta: string): void;
  end(): void;
}

type PieceListener = (piece: LivePiece) => void;

/**
 * The model calls streaming on this worker, by run: the relay reads a call's text so far from here
 * and is told of every new piece. Only the latest call of a run is kept (a run streams one call at a
 * time), and it is dropped a while after it ended.
 */
export class LiveCalls {
  private readonly calls = new Map<string, LiveCall>();
  private readonly listeners = new Map<string, Set<PieceListener>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  begin(key: LiveCallKey): LiveCallWriter {
    const call = new LiveCall(key);
    clearTimeout(this.timers.get(key.workflowId));
    this.calls.set(key.workflowId, call);
    return {
      write: (kind, delta) => {
        if (call.ended || delta.length === 0) return;
        const offset = call[kind].append(delta);
        const piece: LivePiece = { kind, iteration: key.iteration, attempt: key.attempt, offset, text: delta };
        for (const listener of this.listeners.get(key.workflowId) ?? []) listener(piece);
      },
      end: () => {
        if (call.ended) return;
        call.ended = true;
        const timer = setTimeout(() => {
          if (this.calls.get(key.workflowId) === call) this.calls.delete(key.workflowId);
          this.timers.delete(key.workflowId);
        }, KEEP_ENDED_MS);
        timer.unref();
        this.timers.set(key.workflowId, timer);
      },
    };
  }

  /** Whether a call of this run is streaming here now. */
  streaming(workflowId: string): boolean {
    const call = this.calls.get(workflowId);
    return call !== undefined && !call.ended;
  }

  /** The pieces of the run's latest call that a subscriber at `from` lacks (all of it for another call). */
  missing(workflowId: string, from: LiveFeedFrom | undefined): LivePiece[] {
    const call = this.calls.get(workflowId);
    if (!call) return [];
    const same = from?.iteration === call.key.iteration && from.attempt === call.key.attempt;
    const pieces: LivePiece[] = [];
    for (const kind of ['thinking', 'text'] as const) {
      const rest = call[kind].since(same ? from[kind] : 0);
      if (rest) pieces.push({ kind, iteration: call.key.iteration, attempt: call.key.attempt, ...rest });
    }
    return pieces;
  }

  /** Calls `listener` with every new piece of the run's calls until the returned function is called. */
  listen(workflowId: string, listener: PieceListener): () => void {
    const set = this.listeners.get(workflowId) ?? new Set();
    set.add(listener);
    this.listeners.set(workflowId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(workflowId);
    };
  }

  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.calls.clear();
  }
}
