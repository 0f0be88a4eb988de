import { z } from 'zod';
import { ContextBudgetSchema } from './agent-definition';
import { CommandPatternSchema } from './shell-analysis';
import { CompletionToolNameSchema } from './control-tools/completion-tools';
import { ModelTierSchema } from './model-tiers';
import { PermissionModeSchema } from './permission-mode';
import { ToolScopeSchema } from './tool-scope';
import { ToolApprovalSchema } from './approval-rules';

/** What the workflow knows of one of the agent's tools; the code and schema stay on the worker. */
export const ResolvedToolSchema = z.object({
  scope: ToolScopeSchema,
  /** Safe to run again after a worker died mid-call. Non-idempotent calls run at most once. */
  idempotent: z.boolean(),
  /** Finishes within seconds; with `idempotent`, runs as a local activity (absent in states of earlier releases). */
  quick: z.boolean().optional(),
  /** The argument that identifies what a call touches, for scoped "always"/"never" (e.g. `path`). */
  subjectArgument: z.string().optional(),
  /** How long one attempt may take (the activity's start-to-close timeout); 15 minutes when absent. */
  timeoutSeconds: z.number().positive().optional(),
});
export type ResolvedTool = z.infer<typeof ResolvedToolSchema>;

/** The agent as the workflow needs it, handed over by the `resolveAgent` activity. */
export const ResolvedAgentSchema = z.object({
  name: z.string(),
  description: z.string(),
  modelTier: ModelTierSchema,
  /** The agent's exact model id, when it names one (state version 5). */
  model: z.string().optional(),
  maxIterations: z.number().int().positive(),
  tools: z.record(z.string(), ResolvedToolSchema),
  approval: ToolApprovalSchema.optional(),
  context: ContextBudgetSchema,
  /** Who may decide this agent's parked calls; absent means anyone who reaches the namespace. */
  approvers: z.array(z.string()).optional(),
  workspace: z.enum(['shared', 'per-run']).default('shared'),
  network: z.boolean().default(false),
  /** Whether the worker runs tool commands in a sandbox (shown in status). */
  sandboxed: z.boolean().default(false),
  /** Command patterns of the agent's and the run's shell rules, split into words by the worker's parser. */
  commandPatterns: z.record(z.string(), CommandPatternSchema).default({}),
  /** The tools that end a run for this agent (histories before `completionTools` had only complete_task). */
  completionTools: z.array(CompletionToolNameSchema).default(() => ['complete_task' as const]),
  subAgents: z.array(z.string()).default([]),
  handoffs: z.array(z.string()).default([]),
  delegation: z.object({ maxDepth: z.number().int(), maxPerTurn: z.number().int() }).default({ maxDepth: 2, maxPerTurn: 4 }),
  /** The agent's guardrails, as the workflow needs them (the checks themselves run on the worker). */
  guardrails: z
    .array(z.object({ name: z.string(), on: z.enum(['input', 'output', 'tool']), onTrip: z.enum(['end_run', 'reject_call']), tools: z.array(z.string()).optional() }))
    .default([]),
  /** Calls that would park are first handed to the agent's approval handler. */
  approvalHandler: z.boolean().default(false),
  /** The agent's default permission mode; a run's `mode` overrides it. */
  mode: PermissionModeSchema.optional(),
});
export type ResolvedAgent = z.infer<typeof ResolvedAgentSchema>;
