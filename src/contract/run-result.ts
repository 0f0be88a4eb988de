import type { Completion, SavedSummary, Task } from './control-tools';
import type { TokenUsage } from './messages';
import type { AgentRunInput } from './run-input';

/**
 * What `agentRun` returns. `status` says why the loop stopped; `completion` is the agent's own word.
 * `TOutput` is the type of `output`: a handle started with a `defineAgent` agent knows it from the
 * agent's zod `outputSchema` (see AgentOutput); otherwise it is `unknown`, to be checked by the caller.
 */
export interface AgentRunResult<TOutput = unknown> {
  status: 'completed' | 'max_iterations' | 'guardrail_tripped' | 'budget_exhausted';
  completion?: Completion;
  /** The typed result, when the run (or its agent) asked for one with an output schema. */
  output?: TOutput;
  /** With `guardrail_tripped`: which guardrail stopped the run, why, and at which step. */
  guardrail?: { name: string; reason: string; step: string };
  /** A thread (`followUps`): every turn's completion, in order. */
  completions?: Completion[];
  iterations: number;
  usage: TokenUsage;
  /**
   * The estimated cost of `usage` in USD (sub-agents' included), as the `AgentCostUsd` search attribute
   * holds it; absent when the worker knows no price for the model (see AGENT_MODEL_PRICES_FILE).
   */
  costUsd?: number;
  tasks: Task[];
  agent: string;
  workflowId: string;
  /**
   * What went wrong without stopping the run, as `status.warnings` says it (a choice that could not be
   * saved, messages sent while it worked that it ended before delivering); absent when there is none.
   */
  warnings?: string[];
  /** What `agentctl resume` carries into a follow-up run. */
  carryOver: {
    savedSummaries: SavedSummary[];
    conversationSummary?: string;
    lastAssistantText?: string;
  };
}

/** The workflow's signature, for starting it as a child without importing the workflow module. */
export type AgentRunWorkflow = (input: AgentRunInput) => Promise<AgentRunResult>;
