// The model's text while a `callModel` activity streams it, from its heartbeat (read with `describe`;
// see runtime/live/heartbeat-progress.ts), as the console shows it. The relay's address and token,
// which the heartbeat also carries, are left out: the browser has no use for them.
import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import { heartbeatProgress, MODEL_ACTIVITY_TYPE, type HeartbeatProgress } from '../runtime/live/heartbeat-progress';

export { MODEL_ACTIVITY_TYPE };

export type LiveModelText = Omit<HeartbeatProgress, 'relay'>;

/** The latest streamed text of the run's model call in flight, or undefined when none is streaming. */
export async function liveModelText(description: WorkflowExecutionDescription, converter: LoadedDataConverter): Promise<LiveModelText | undefined> {
  const progress = await heartbeatProgress(description, converter);
  if (!progress) return undefined;
  const { relay: _relay, ...text } = progress;
  return text;
}
