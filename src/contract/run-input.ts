import { z } from 'zod';
import { ToolApprovalSchema } from './approval-rules';
import { SavedSummarySchema, TaskSchema } from './control-tools';
import { JsonSchemaObjectSchema } from './output-check';
import { PermissionModeSchema } from './permission-mode';
import { EffortSchema } from './model-options';
import { BudgetSchema } from './budget';

/**
 * The `resume` input: what a run resumed by an earlier release carried over (a new conversation seeded
 * with a summary of the run it continued). An alias path kept for compatibility only: clients of older
 * releases may still send it and histories of those runs must replay, so the workflow still accepts it,
 * but no code of ours sends it any more; `agentctl resume` sends `checkpoint` + `resumedFrom`.
 */
export const ResumeContextSchema = z.object({
  fromWorkflowId: z.string().min(1),
  fromRunId: z.string().optional(),
  /** How the earlier run ended and what it had concluded, for the model's first message. */
  previousOutcome: z.string(),
  tasks: z.array(TaskSchema).default([]),
  savedSummaries: z.array(SavedSummarySchema).default([]),
  conversationSummary: z.string().optional(),
  usage: z
    .object({
      inputTokens: z.number(),
      outputTokens: z.number(),
      cacheReadInputTokens: z.number(),
      cacheCreationInputTokens: z.number(),
    })
    .optional(),
  iterationsBefore: z.number().int().min(0).default(0),
});
export type ResumeContext = z.infer<typeof ResumeContextSchema>;

/**
 * The `agentRun` input. `agent`, `task`, `maxIterations` and `toolApproval` are a contract with
 * external clients; fields are only ever added, and only as optional ones.
 */
export const AgentRunInputSchema = z.object({
  agent: z.string().min(1, 'agent must name an agent in the worker registry, e.g. "general"'),
  task: z.string().min(1, 'task must describe the work to do'),
  /**
   * The iteration cap. With `resumedFrom`: how many more iterations the resumed run may use (left out,
   * the earlier cap applies again once it was reached, or the run goes on up to it).
   */
  maxIterations: z.number().int().positive().max(100_000).optional(),
  /** Whose remembered approval preferences apply (defaults to "default"). */
  user: z.string().min(1).max(200).optional(),
  toolApproval: ToolApprovalSchema.optional(),
  /** How long one approval or question may wait before it is treated as rejected ("timed out"). */
  approvalTimeoutSeconds: z.number().positive().optional(),
  /** Compatibility alias of resuming (see ResumeContextSchema): accepted, never sent by our code. */
  resume: ResumeContextSchema.optional(),
  /**
   * Temporal's task priority for the run, its activities and its sub-agents: 1 (first) to 5 (last);
   * left out, the server's default (3). A later continue-as-new link keeps it.
   */
  priority: z.number().int('priority must be a whole number from 1 (first) to 5 (last)').min(1, 'priority must be from 1 (first) to 5 (last)').max(5, 'priority must be from 1 (first) to 5 (last)').optional(),
  /**
   * The key Temporal's fairness shares task dispatch by (a tenant, a team); default: `user`, else none.
   * At most 64 characters.
   */
  fairnessKey: z.string().min(1).max(64, 'fairnessKey is at most 64 characters').optional(),
  /**
   * A spend budget (issue 34): the run parks (`waiting_budget`) before a model call that would cross
   * it, until an approver raises it. Overrides the agent's `budget` field by field.
   */
  budget: BudgetSchema.optional(),
  /** Who may decide this run's parked calls; narrows the agent's own list (a run cannot widen it). */
  approvers: z.array(z.string().min(1).max(200)).min(1).optional(),
  /** Lets this run's tool commands reach the network; otherwise the agent's setting (default: no network). */
  network: z.boolean().optional(),
  /** The longest wait between attempts while the model API is unavailable (default 300 s); attempts never run out. */
  modelRetryMaxSeconds: z.number().positive().max(24 * 60 * 60).optional(),
  /** Sub-agents this run may delegate to with `delegate_task`, besides the agent's own `subAgents`. */
  subAgents: z.array(z.string().min(1)).optional(),
  /** Keep the run open after each completion for follow-up messages (signal `userMessage`, update `sendMessage`). */
  followUps: z.boolean().optional(),
  /** How long a thread (followUps) waits for the next message before it closes (default 7 days). */
  idleTimeoutSeconds: z.number().positive().optional(),
  /** The permission mode the run starts in (default: the agent's, else `default`); update `setMode` switches it. */
  mode: PermissionModeSchema.optional(),
  /** Internal: set when a parent run started this one as a sub-agent. */
  parent: z.object({ workflowId: z.string(), rootWorkflowId: z.string(), depth: z.number().int().min(1) }).optional(),
  /** When to continue as new; defaults sit below Temporal's suggestion (4,096 events / 4 MiB). */
  historyBudget: z
    .object({ maxEvents: z.number().int().min(50).optional(), maxBytes: z.number().int().min(64 * 1024).optional() })
    .optional(),
  /**
   * A JSON Schema for the run's typed result: the agent's completion tool then requires an `output`
   * that matches it (checked by the worker), and the result carries it as `output`. Overrides an
   * output schema of the agent's own.
   */
  outputSchema: JsonSchemaObjectSchema.optional(),
  /**
   * Internal: the state a run hands to its next link when it continues as new, or the state of an
   * ended run (completed, at its cap, failed or cancelled) that `agentctl resume` continues: the one
   * resume path, read with the `checkpoint` query; then `resumedFrom` names that run and the rest of
   * the input is the earlier run's own, whole.
   */
  checkpoint: z.unknown().optional(),
  resumedFrom: z.string().optional(),
  /**
   * Who asked for this fork or resume (with `resumedFrom`): the run continues as that person's (their
   * remembered choices; the earlier run's choices only when they made them). A run with approvers is
   * continued only at an approver's request, signed with their key when the worker has a registry.
   */
  requestedBy: z
    .object({ name: z.string().min(1).max(200), kind: z.enum(['fork', 'resume']), expiresAt: z.string().optional(), signature: z.string().optional() })
    .optional(),
  /**
   * Internal: set by `agentctl fork` when the agent works in per-run folders; the fork starts in a
   * copy of this run's folder as it is now.
   */
  copyWorkspaceOf: z.string().optional(),
  /** An exact model id for this run, instead of the agent's `model` or tier (`agentctl run --model`). */
  model: z.string().min(1).optional(),
  /** This run's effort (`output_config.effort`), instead of the agent's (`agentctl run --effort`). */
  effort: EffortSchema.optional(),
});
export type AgentRunInput = z.input<typeof AgentRunInputSchema>;
export type ParsedRunInput = z.output<typeof AgentRunInputSchema>;

const WEEK_SECONDS = 7 * 24 * 60 * 60;
/** How long an approval or question waits before it counts as rejected, when the run sets nothing. */
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = WEEK_SECONDS;
/** How long a thread (followUps) waits for the next message before it closes, when the run sets nothing. */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = WEEK_SECONDS;
/** The longest wait between model-call attempts while the API is unavailable, when the run sets nothing. */
export const DEFAULT_MODEL_RETRY_MAX_SECONDS = 300;
