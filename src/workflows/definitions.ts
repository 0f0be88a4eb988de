import { defineQuery } from '@temporalio/workflow';
import type { RunState } from '../core/machine/run-state';

// Every public message of `agentRun` is defined in the contract; the workflow and old importers use it from here.
export * from '../contract/agent-run-api';

/**
 * The whole state of a run, for `agentctl resume` to continue a failed or cancelled run with its
 * conversation. Internal: its shape is the versioned checkpoint, not a contract.
 */
export const checkpointQuery = defineQuery<RunState>('checkpoint');
