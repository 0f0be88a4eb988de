import { z } from 'zod';
import { RunPhaseSchema } from '../../../contract/run-records';
import { ResolvedAgentSchema } from '../../../contract/resolved-agent';
import { ToolApprovalSchema } from '../../../contract/approval-rules';
import { CompletionSchema, TaskSchema } from '../../../contract/control-tools';
import { ConversationMessageSchema } from '../../../contract/conversation-ref';
import { JsonSchemaObjectSchema } from '../../../contract/output-check';
import { EffortSchema } from '../../../contract/model-options';

/**
 * The core slice: what the run is (its id, settings and agent), the conversation, the model's task
 * list, and how the run ends (completion, typed output, outcome). Written at start by
 * run-state-init.ts; then `messages` by on-model, on-steer, on-thread and on-compacted, `conversation`
 * by on-model and on-compacted, `tasks`/`completion`/`output` by on-control-tool (and on-thread,
 * on-steer when a thread moves on), `outcome` by advance and the handlers that end a run, `agent` by
 * on-team (a handoff), `guardrailsChecked` by on-guardrails, and `phase` by transition.ts.
 */

/** The run's own settings, fixed at start (agent defaults applied). */
export const RunSettingsSchema = z.object({
  agent: z.string(),
  task: z.string(),
  user: z.string(),
  maxIterations: z.number().int().positive(),
  toolApproval: ToolApprovalSchema.optional(),
  approvalTimeoutSeconds: z.number().positive(),
  historyBudget: z.object({ maxEvents: z.number().int(), maxBytes: z.number().int() }),
  /** Who may decide this run's parked calls (narrows the agent's list). */
  approvers: z.array(z.string()).optional(),
  /** Lets this run's tool commands reach the network (the agent's setting otherwise). */
  network: z.boolean().optional(),
  /** The longest wait between two attempts of a model call while the API is unavailable. */
  modelRetryMaxSeconds: z.number().positive().default(300),
  /** The JSON Schema the completion's `output` must match (the run's own; the agent's lives on the worker). */
  outputSchema: JsonSchemaObjectSchema.optional(),
  /** Sub-agents this run may delegate to besides the agent's own. */
  subAgents: z.array(z.string()).default([]),
  /** The run stays open after each completion for follow-up messages (a thread). */
  followUps: z.boolean().default(false),
  /** How long a thread waits for a follow-up before it closes. */
  idleTimeoutSeconds: z.number().positive().default(7 * 24 * 60 * 60),
  /** The run's own model id and effort, overriding the agent's (state version 5). */
  model: z.string().optional(),
  effort: EffortSchema.optional(),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

/** How the run ended, once it has. */
export const OutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('completed') }),
  z.object({ kind: z.literal('max_iterations') }),
  /** The budget wait timed out (issue 34): a partial result, resumable like max_iterations. */
  z.object({ kind: z.literal('budget_exhausted') }),
  z.object({ kind: z.literal('guardrail_tripped'), guardrail: z.string(), reason: z.string(), step: z.string() }),
  z.object({ kind: z.literal('failed'), type: z.string(), message: z.string() }),
]);
export type RunOutcome = z.infer<typeof OutcomeSchema>;

export const CoreSliceSchema = z.object({
  workflowId: z.string(),
  input: RunSettingsSchema,
  agent: ResolvedAgentSchema,
  phase: RunPhaseSchema,
  messages: z.array(ConversationMessageSchema),
  /** Where the model activity's copy of the conversation stands (see conversation-sync.ts). */
  conversation: z.object({ key: z.string(), generation: z.number().int(), syncedCount: z.number().int(), tag: z.string().optional() }),
  tasks: z.array(TaskSchema),
  completion: CompletionSchema.optional(),
  /** The typed result the completion carried, once it matched the run's output schema. */
  output: z.unknown().optional(),
  outcome: OutcomeSchema.optional(),
  chain: z.object({ link: z.number().int(), resumedFrom: z.string().optional() }),
  startedAt: z.string(),
  /** Guardrails already run for the task and for the current completion. */
  guardrailsChecked: z.object({ input: z.boolean(), output: z.boolean() }).default({ input: false, output: false }),
});
export type CoreSlice = z.infer<typeof CoreSliceSchema>;
