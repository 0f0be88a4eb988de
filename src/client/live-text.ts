// The model's text as it streams, read from where Temporal already keeps it: the heartbeat details of
// the run's pending `callModel` activity (activities/call-model.ts heartbeats `{ text, chars, attempt,
// iteration }`, throttled by the worker to one every 500 ms). Nothing per token goes into the run's
// history: heartbeat details live on the pending activity and are dropped when it completes; the reply
// is recorded once, as the activity's result, as before. The end of a reply that no heartbeat carried
// comes from the `status` query (`modelText`) once the reply is in.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
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

const MODEL_ACTIVITY = 'callModel';

/** What the run's streaming model call has written so far, from its latest heartbeat, if one runs. */
export async function readModelProgress(client: Client, handle: WorkflowHandle): Promise<StreamProgress | undefined> {
  const { raw } = await handle.describe();
  for (const activity of raw.pendingActivities ?? []) {
    if (activity.activityType?.name !== MODEL_ACTIVITY || !activity.heartbeatDetails?.payloads?.length) continue;
    const progress = await decodeFromPayloadsAtIndex<StreamProgress>(client.options.loadedDataConverter, 0, activity.heartbeatDetails.payloads);
    if (progress && typeof progress.text === 'string' && typeof progress.chars === 'number' && typeof progress.iteration === 'number') return progress;
  }
  return undefined;
}

/**
 * Turns readings of the model's text (heartbeats while it streams, the status once the reply is in)
 * into deltas: only characters not handed out yet. A reading carries the last 4,000 characters; when
 * more arrived between two readings, the gap is marked "…" rather than the text pretending to be whole.
 */
export class LiveTextTracker {
  private readonly handedOut = new Map<string, number>();
  /** The attempt whose text was handed out last, per iteration: the reply comes from it. */
  private readonly lastAttempt = new Map<number, number>();

  constructor(private readonly workflowId: string) {}

  fromProgress(progress: StreamProgress): TextDeltaEvent | undefined {
    return this.delta(progress.iteration ?? 0, progress.attempt, progress.text, progress.chars);
  }

  /** New thinking in a reading; counted apart from the text, under its own key. */
  thinkingFromProgress(progress: StreamProgress): ThinkingDeltaEvent | undefined {
    if (progress.thinking === undefined || progress.thinkingChars === undefined) return undefined;
    const delta = this.delta(progress.iteration ?? 0, progress.attempt, progress.thinking, progress.thinkingChars, 'thinking');
    return delta && { ...delta, type: 'thinking_delta' };
  }

  fromStatus(status: Pick<RunStatus, 'modelText'>): TextDeltaEvent | undefined {
    const reply = status.modelText;
    if (!reply) return undefined;
    return this.delta(reply.iteration, this.lastAttempt.get(reply.iteration) ?? 1, reply.text, reply.chars);
  }

  private delta(iteration: number, attempt: number, text: string, chars: number, kind = ''): TextDeltaEvent | undefined {
    const key = `${kind}${iteration}#${attempt}`;
    const before = this.handedOut.get(key) ?? 0;
    if (chars <= before) return undefined;
    this.handedOut.set(key, chars);
    if (kind === '') this.lastAttempt.set(iteration, attempt);
    const fresh = chars - before;
    const piece = fresh > text.length ? `…${text}` : text.slice(text.length - fresh);
    return { type: 'text_delta', workflowId: this.workflowId, iteration, attempt, text: piece, at: new Date().toISOString() };
  }
}

/**
 * Reads the run's model text every `pollMs` until `signal` aborts, handing what is new to `onText`.
 * A failed read (the run just closed, a network blip) is skipped; the next one tries again.
 */
export async function followLiveText(
  client: Client,
  handle: WorkflowHandle,
  tracker: LiveTextTracker,
  onText: (delta: TextDeltaEvent) => void,
  options: { signal: AbortSignal; pollMs?: number; onThinking?: (delta: ThinkingDeltaEvent) => void },
): Promise<void> {
  while (!options.signal.aborted) {
    const progress = await readModelProgress(client, handle).catch(() => undefined);
    // Thinking comes before the text it leads to, so it is handed out first.
    const thought = progress && options.onThinking && tracker.thinkingFromProgress(progress);
    if (thought && !options.signal.aborted) options.onThinking!(thought);
    const delta = progress && tracker.fromProgress(progress);
    if (delta && !options.signal.aborted) onText(delta);
    await sleep(options.pollMs ?? 250, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
