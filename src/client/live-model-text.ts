// The model's text while a `callModel` activity streams it. The activity heartbeats its progress
// (StreamProgress); Temporal keeps the last heartbeat on the pending activity, so any client reads it
// with `describe`, without a worker and without anything written to the run's history.
import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import type { StreamProgress } from '../runtime/model/stream-message';

export const MODEL_ACTIVITY_TYPE = 'callModel';

export interface LiveModelText extends StreamProgress {
  activityId: string;
  /** When the current attempt started, if the server says. */
  startedAt?: string;
}

function isProgress(value: unknown): value is StreamProgress {
  const v = value as Partial<StreamProgress> | undefined;
  return typeof v?.text === 'string' && typeof v.chars === 'number' && typeof v.attempt === 'number';
}

/** The latest streamed text of the run's model call in flight, or undefined when none is streaming. */
export async function liveModelText(description: WorkflowExecutionDescription, converter: LoadedDataConverter): Promise<LiveModelText | undefined> {
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
    return { activityId: activity.activityId ?? '', text: progress.text, chars: progress.chars, attempt: progress.attempt, startedAt, ...thought };
  }
  return undefined;
}
