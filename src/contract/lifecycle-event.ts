import type { Sinks } from '@temporalio/workflow';
import { z } from 'zod';

/**
 * The lifecycle events a run emits (names are a contract). The workflow hands them to worker-side
 * handlers through a Temporal sink, which does not re-fire them when the workflow is replayed.
 */
export type LifecycleEventName =
  | 'agentStarted'
  | 'agentEnded'
  | 'iterationStarted'
  | 'iterationCompleted'
  | 'toolStarted'
  | 'toolEnded'
  | 'approvalRequested'
  | 'approvalDecided'
  | 'errorOccurred'
  | 'contextCompacted'
  | 'agentHandedOff'
  | 'guardrailTripped'
  | 'messageReceived';

export interface LifecycleEvent {
  name: LifecycleEventName;
  /** Workflow time (deterministic) as an ISO string. */
  at: string;
  workflowId: string;
  runId: string;
  agent: string;
  iteration: number;
  /** A stable key (workflow id + step) so handlers can drop the duplicates a retried task may cause. */
  key: string;
  data: Record<string, unknown>;
}

/** The sink the workflow calls and the worker implements (see src/runtime/lifecycle/lifecycle-sink.ts). */
export interface LifecycleSinks extends Sinks {
  lifecycle: { emit(event: LifecycleEvent): void };
}

/** A lifecycle event as the checkpoint stores it (the status shows the recent ones). */
export const LifecycleEventSchema = z.object({
  name: z.string(),
  at: z.string(),
  workflowId: z.string(),
  runId: z.string(),
  agent: z.string(),
  iteration: z.number(),
  key: z.string(),
  data: z.record(z.string(), z.unknown()),
});
