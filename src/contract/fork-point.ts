import type { Sinks } from '@temporalio/workflow';

/**
 * The sink a fork reads a run's past states through. The workflow calls it only in the replayer
 * `agentctl fork` builds (its bundle carries the interceptor module that sets FORK_REPLAY_GLOBAL),
 * once per completed iteration, with the whole run state right after that iteration's tool results
 * joined the conversation. A worker's own bundle never calls it, so neither live runs nor a worker's
 * replays copy any state out; a worker registers it as a no-op all the same. It writes nothing to any
 * history: no patch, and every saved history replays as before.
 */
export interface ForkPointSinks extends Sinks {
  forkPoints: { iterationEnded(state: unknown): void };
}

/** The global the fork replayer's interceptor module sets in the workflow context (src/workflows/fork-replay.ts). */
export const FORK_REPLAY_GLOBAL = '__durableAgentForkReplay';
