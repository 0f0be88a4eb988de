import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { FORK_REPLAY_GLOBAL } from '../contract/fork-point';

/**
 * A workflow interceptor module bundled only into the code `agentctl fork` replays a run with (see
 * src/client/fork-point.ts), never into a worker's bundle: it marks the workflow context so the run
 * driver hands out its state after each iteration (contract/fork-point.ts). It intercepts nothing.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  (globalThis as Record<string, unknown>)[FORK_REPLAY_GLOBAL] = true;
  return {};
};
