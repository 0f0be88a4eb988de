import type { Sinks } from '@temporalio/workflow';

/**
 * What the replay lab reads out of a recorded run while it replays the run's histories (see
 * src/client/replay/recorded-run.ts): every activity call with its input and its result (or failure),
 * local activities included (their input is in no history event), every message a person sent in
 * (signals and updates the run accepted), each link's input and the run's result. The workflow calls
 * this sink only in the replayer the lab builds, whose bundle alone carries the interceptor module
 * src/workflows/replay-lab-recorder.ts; a worker's bundle never does, so live runs pay nothing and no
 * history changes.
 */
export type RecordedEntry =
  | { kind: 'start'; input: unknown }
  | { kind: 'activity'; activity: string; local: boolean; input: unknown; result: unknown }
  | { kind: 'activity_failed'; activity: string; local: boolean; input: unknown; failure: { message: string; type?: string } }
  | { kind: 'message'; name: string; payload: unknown }
  | { kind: 'result'; result: unknown };

export interface ReplayLabSinks extends Sinks {
  replayLab: { recorded(entry: RecordedEntry): void };
}
