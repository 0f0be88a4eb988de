// The model's text as it streams, turned into what a follower prints: `text_delta` and
// `thinking_delta` events holding only the characters not handed out yet. The text comes from the
// worker's live relay as it streams (run-feed.ts), or, where no relay is reachable, from where
// Temporal already keeps it: the heartbeat details of the run's pending `callModel` activity (its text
// so far, `{ text, chars, attempt, iteration }`, sent at most every 500 ms). Nothing per token goes
// into the run's history either way; the reply is recorded once, as the activity's result. The end of
// a reply that no reading carried comes from the `status` query (`modelText`) once the reply is in.
import type { LiveFeedFrom, LivePiece } from '../contract/live-feed';
import type { StreamProgress } from '../runtime/model/stream-message';
import type { RunStatus } from '../contract/run-status';

/** The `--json` event for new model text (a contract: scripts rely on its fields). */
export interface TextDeltaEvent {
  type: 'text_delta';
  workflowId: string;
  /** The run's iteration whose model call wrote it. */
  iteration: number;
  /** The attempt of that model call: a retried call starts its text over. */
  attempt: number;
  /** The new text; the deltas of one iteration and attempt, concatenated, are its text so far. */
  text: string;
  /** When the CLI read it (ISO time). */
  at: string;
}

/** The `--json` event for new thinking, shaped like `text_delta` (agentctl run/watch show it dimmed). */
export interface ThinkingDeltaEvent extends Omit<TextDeltaEvent, 'type'> {
  type: 'thinking_delta';
}

/**
 * Turns readings of the model's text (pieces from the relay, heartbeats, the status once the reply is
 * in) into deltas: only characters not handed out yet. Each reading says at which character of its
 * call it starts, so overlapping readings hand nothing out twice; when a reading starts past what was
 * handed out (a heartbeat carries only the last 4,000 characters), the gap is marked "…" rather than
 * the text pretending to be whole.
 */
export class LiveTextTracker {
  private readonly handedOut = new Map<string, number>();
  /** The attempt whose text was handed out last, per iteration: the reply comes from it. */
  private readonly lastAttempt = new Map<number, number>();
  private latest?: { iteration: number; attempt: number };

  constructor(private readonly workflowId: string) {}

  fromProgress(progress: StreamProgress): TextDeltaEvent | undefined {
    return this.delta(progress.iteration ?? 0, progress.attempt, progress.chars - progress.text.length, progress.text);
  }

  /** New thinking in a reading; counted apart from the text, under its own key. */
  thinkingFromProgress(progress: StreamProgress): ThinkingDeltaEvent | undefined {
    if (progress.thinking === undefined || progress.thinkingChars === undefined) return undefined;
    const delta = this.delta(progress.iteration ?? 0, progress.attempt, progress.thinkingChars - progress.thinking.length, progress.thinking, 'thinking');
    return delta && { ...delta, type: 'thinking_delta' };
  }

  /** A piece the relay pushed: text or thinking from character `offset` of its call. */
  fromPiece(piece: LivePiece): TextDeltaEvent | ThinkingDeltaEvent | undefined {
    if (piece.kind === 'text') return this.delta(piece.iteration, piece.attempt, piece.offset, piece.text);
    const delta = this.delta(piece.iteration, piece.attempt, piece.offset, piece.text, 'thinking');
    return delta && { ...delta, type: 'thinking_delta' };
  }

  fromStatus(status: Pick<RunStatus, 'modelText'>): TextDeltaEvent | undefined {
    const reply = status.modelText;
    if (!reply) return undefined;
    return this.delta(reply.iteration, this.lastAttempt.get(reply.iteration) ?? 1, reply.chars - reply.text.length, reply.text);
  }

  /** How much of the latest call was handed out: a relay resumes from here, so nothing comes twice. */
  position(): LiveFeedFrom | undefined {
    if (!this.latest) return undefined;
    const { iteration, attempt } = this.latest;
    return { iteration, attempt, text: this.handedOut.get(`${iteration}#${attempt}`) ?? 0, thinking: this.handedOut.get(`thinking${iteration}#${attempt}`) ?? 0 };
  }

  private delta(iteration: number, attempt: number, offset: number, text: string, kind = ''): TextDeltaEvent | undefined {
    const key = `${kind}${iteration}#${attempt}`;
    const before = this.handedOut.get(key) ?? 0;
    const end = offset + text.length;
    if (end <= before) return undefined;
    this.handedOut.set(key, end);
    if (kind === '') this.lastAttempt.set(iteration, attempt);
    this.latest = { iteration, attempt };
    const piece = offset > before ? `…${text}` : text.slice(before - offset);
    return { type: 'text_delta', workflowId: this.workflowId, iteration, attempt, text: piece, at: new Date().toISOString() };
  }
}
