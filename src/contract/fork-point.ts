import type { Sinks } from '@temporalio/workflow';

/**
 * The sink a fork reads a run's past states through. The workflow calls it only while it replays a
 * history (never live), once per completed iteration, with the whole run state right after that
 * iteration's tool results joined the conversation. Only the replayer `agentctl fork` builds
 * implements it (`callDuringReplay`); a worker registers it as a no-op, so the call costs nothing
 * live and writes nothing to any history: no patch, and every saved history replays as before.
 */
export interface ForkPointSinks extends Sinks {
  forkPoints: { iterationEnded(state: unknown): void };
}
