import type { Sinks } from '@temporalio/workflow';
import { z } from 'zod';
import type { Completion } from './control-tools/complete-task';
import type { TokenUsage } from './messages';
import type { DecisionRecord } from './run-records';

import type { CallApproval } from './decision';

/** Who let a call run, as the tool events carry it: the policy, or the decision of a person or handler. */
export type { CallApproval } from './decision';

/**
 * The `data` of each lifecycle event, by name. Names and fields are a contract with other clients
 * (docs/guides/lifecycle.md): add optional fields, never rename or remove one. Type literals, not
 * interfaces, so each stays assignable to the checkpoint's `Record<string, unknown>`.
 */
export type LifecycleEventData = {
  /** The run resolved its agent (first link only). */
  agentStarted: { task: string; user: string };
  /** The run ended; `completion` and `iterations`, or `error`; a tripped guardrail says which. */
  agentEnded: {
    status: 'completed' | 'max_iterations' | 'failed' | 'cancelled' | 'guardrail_tripped' | 'budget_exhausted';
    usage: TokenUsage;
    completion?: Completion;
    completions?: number;
    iterations?: number;
    error?: string;
    guardrail?: string;
    reason?: string;
    step?: string;
  };
  iterationStarted: Record<string, never>;
  /** `usage` is cumulative; `toolCalls` only on a turn without tool calls. */
  iterationCompleted: { completed: boolean; usage: TokenUsage; toolCalls?: number };
  /** `child`: the workflow id of a sub-agent's run (delegate_task). */
  toolStarted: { tool: string; callId: string; arguments: unknown; approval?: CallApproval; child?: string };
  /**
   * `output`: the first 200 characters; `outcome: 'unknown'` for a call that stopped without an answer;
   * `ranBy: 'api'` for a server tool (web search, ...) the Messages API ran within its reply.
   */
  toolEnded: { tool: string; callId: string; success: boolean; durationMs: number; arguments: unknown; output: string; approval?: CallApproval; outcome?: 'unknown'; child?: string; ranBy?: 'api' };
  approvalRequested: { callId: string; tool: string; input: unknown; requestedAt: string; iteration: number; reason: string; context?: string };
  /** The decision as the run records it; `arguments` when the call was refused before a person saw it. */
  approvalDecided: DecisionRecord & { arguments?: unknown; edited?: { original: unknown; arguments: unknown } };
  /**
   * The next model call would cross the run's budget (issue 34): the run parks until an approver
   * raises it (update `raiseBudget`) or `approvalTimeoutSeconds` pass (`budget_exhausted`).
   */
  budgetExceeded: { spentUsd?: number; maxUsd?: number; spentTokens: number; maxTokens?: number; since: string; workflowId: string; limit: 'usd' | 'tokens' };
  /** An approver raised the run's budget; `maxUsd` / `maxTokens` are the new limits. */
  budgetRaised: { maxUsd?: number; maxTokens?: number; by?: string };
  /** The run's permission mode was switched (update `setMode`); written to the audit log. */
  modeChanged: { from: string; to: string; by?: string; reason?: string };
  /** `retrying` and the attempt fields when an unavailable model is waited out. */
  errorOccurred: { message: string; type: string; retrying?: boolean; attempt?: number; nextAttemptAt?: string };
  contextCompacted: { estimatedTokens: number; messagesBefore: number; messagesAfter: number };
  agentHandedOff: { from: string; to: string; reason?: string };
  guardrailTripped: { guardrail: string; reason: string; step: string };
  /** A follow-up arrived (its first 200 characters). */
  messageReceived: { text: string };
};

/** The lifecycle events a run emits (names are a contract). */
export type LifecycleEventName = keyof LifecycleEventData;

/** One event of a given name: the envelope every event shares, and that name's `data`. */
export type LifecycleEventOf<N extends LifecycleEventName> = {
  name: N;
  /** Workflow time (deterministic) as an ISO string. */
  at: string;
  workflowId: string;
  runId: string;
  agent: string;
  iteration: number;
  /** A stable key (workflow id + step) so handlers can drop the duplicates a retried task may cause. */
  key: string;
  data: LifecycleEventData[N];
};

/**
 * A lifecycle event: a union by `name`, so a reader that checks the name gets that event's `data`.
 * The workflow hands them to worker-side handlers through a Temporal sink, which does not re-fire them
 * when the workflow is replayed.
 */
export type LifecycleEvent = { [N in LifecycleEventName]: LifecycleEventOf<N> }[LifecycleEventName];

/** The sink the workflow calls and the worker implements (see src/runtime/lifecycle/lifecycle-sink.ts). */
export interface LifecycleSinks extends Sinks {
  lifecycle: { emit(event: LifecycleEvent): void };
}

/**
 * A lifecycle event as the checkpoint stores it (the status shows the recent ones). Kept loose on
 * purpose: a checkpoint of an earlier release holds the events it emitted then, and this schema is
 * part of the checkpoint's (a change here is a checkpoint version).
 */
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
