// The model's text while a `callModel` activity streams it, as Temporal keeps it: the activity
// heartbeats its progress (StreamProgress), and the server keeps the latest heartbeat on the pending
// activity, so any client reads it with `describe`, without a worker and without anything written to
// the run's history. Watchers read it when no relay is reachable, and the relay itself reads it for a
// call that streams on another worker.
import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { LiveRelayAddressSchema, type LivePiece } from '../../contract/live-feed';
import type { StreamProgress } from '../model/stream-message';

export const MODEL_ACTIVITY_TYPE = 'callModel';

export interface HeartbeatProgress extends StreamProgress {
  activityId: string;
  /** When the current attempt started, if the server says. */
  startedAt?: string;
}

function isProgress(value: unknown): value is StreamProgress {
  const v = value as Partial<StreamProgress> | undefined;
  return typeof v?.text === 'string' && typeof v.chars === 'number' && typeof v.attempt === 'number';
}

/** The latest heartbeat of the run's model call in flight, or undefined when none is streaming. */
export async function heartbeatProgress(description: WorkflowExecutionDescription, converter: LoadedDataConverter): Promise<HeartbeatProgress | undefined> {
  for (const activity of description.raw.pendingActivities ?? []) {
    if (activity.activityType?.name !== MODEL_ACTIVITY_TYPE) continue;
    const payloads = activity.heartbeatDetails?.payloads;
    if (!payloads?.length) continue;
    const progress = await decodeFromPayloadsAtIndex<unknown>(converter, 0, payloads).catch(() => undefined);
    if (!isProgress(progress)) continue;
    const seconds = activity.lastStartedTime?.seconds;
    const startedAt = seconds == null ? undefined : new Date(Number(seconds) * 1000).toISOString();
    // Thinking only when the call has thought (StreamProgress carries it only then).
    const thought = typeof progress.thinking === 'string' ? { thinking: progress.thinking, thinkingChars: progress.thinkingChars } : {};
    const iteration = typeof progress.iteration === 'number' ? { iteration: progress.iteration } : {};
    const relay = LiveRelayAddressSchema.safeParse(progress.relay);
    return {
      activityId: activity.activityId ?? '',
      text: progress.text,
      chars: progress.chars,
      attempt: progress.attempt,
      startedAt,
      ...iteration,
      ...thought,
      ...(relay.success ? { relay: relay.data } : {}),
    };
  }
  return undefined;
}

/**
 * The text and thinking in a heartbeat that `forwarded` (characters sent so far, by piece, call and
 * attempt; updated here) has not had yet: the relay's pieces for a call that streams on another worker.
 */
export function unforwardedPieces(progress: HeartbeatProgress, forwarded: Map<string, number>): LivePiece[] {
  const iteration = progress.iteration ?? 0;
  const kinds: [LivePiece['kind'], string | undefined, number | undefined][] = [
    ['thinking', progress.thinking, progress.thinkingChars],
    ['text', progress.text, progress.chars],
  ];
  const pieces: LivePiece[] = [];
  for (const [kind, text, chars] of kinds) {
    if (text === undefined || chars === undefined) continue;
    const key = `${kind}${iteration}#${progress.attempt}`;
    if (chars <= (forwarded.get(key) ?? 0)) continue;
    forwarded.set(key, chars);
    pieces.push({ kind, iteration, attempt: progress.attempt, offset: chars - text.length, text });
  }
  return pieces;
}
