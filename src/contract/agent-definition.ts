import { z } from 'zod';
import { codeLoadingRefusal, isCodeLoadingVariable } from './code-loading-variables';
import { ToolApprovalSchema } from './approval-rules';
import { CompletionToolNameSchema } from './control-tools/completion-tools';
import { ModelTierSchema } from './model-tiers';
import { ModelProviderSchema } from './model-provider';
import { PermissionModeSchema } from './permission-mode';
import { CommandLimitsSchema } from './command-limits';
import { JsonSchemaObjectSchema } from './output-check';
import { ModelOptionsShape } from './model-options';
import { NexusToolSchema, nexusToolName } from './nexus-tool';
import { BudgetSchema } from './budget';

/** The context budget of an agent that sets none; written once, here (the schema's defaults use it). */
export const DEFAULT_CONTEXT_BUDGET = Object.freeze({ windowTokens: 200_000, targetShare: 0.6, keepRecentTurns: 6 });

/** How much of the model's context window a run may fill before older turns are summarized. */
export const ContextBudgetSchema = z.object({
  windowTokens: z.number().int().positive().default(DEFAULT_CONTEXT_BUDGET.windowTokens),
  /** Compact when the estimated prompt passes this share of the window. */
  targetShare: z.number().gt(0).lt(1).default(DEFAULT_CONTEXT_BUDGET.targetShare),
  /** Turns (assistant message + its tool results) kept verbatim at the end of the conversation. */
  keepRecentTurns: z.number().int().min(1).default(DEFAULT_CONTEXT_BUDGET.keepRecentTurns),
});
export type ContextBudget = z.infer<typeof ContextBudgetSchema>;

/**
 * A check with a tripwire. `input` guardrails see the task before the first model call, `output`
 * guardrails the completion, `tool` guardrails each call before the approval policy. `check` is a
 * function registered on the worker (`createAgentWorker({ guardrails })`) or a fast-tier model asked
 * with `instructions`. A trip ends the run (`guardrail_tripped`); a tool guardrail may instead refuse
 * only that call (`onTrip: "reject_call"`).
 */
export const GuardrailSchema = z.object({
  name: z.string().min(1),
  on: z.enum(['input', 'output', 'tool']),
  check: z.union([z.object({ function: z.string().min(1) }), z.object({ model: z.object({ instructions: z.string().min(1) }) })]),
  onTrip: z.enum(['end_run', 'reject_call']).default('end_run'),
  /** Tool guardrails: the tools it looks at (default: all of the agent's tools). */
  tools: z.array(z.string()).optional(),
});
export type Guardrail = z.infer<typeof GuardrailSchema>;

/**
 * Decides calls that would park before a person is asked: a function registered on the worker
 * (`createAgentWorker({ approvalHandlers })`) or a fast-tier model judge with a rubric. It answers
 * allow, reject or ask; only "ask" parks, and a failing handler means "ask".
 */
export const ApprovalHandlerSchema = z.union([z.object({ function: z.string().min(1) }), z.object({ model: z.object({ rubric: z.string().min(1) }) })]);
export type ApprovalHandlerSpec = z.infer<typeof ApprovalHandlerSchema>;

/** The delegation limits of an agent that sets none; written once, here (the schema's defaults use it). */
export const DEFAULT_DELEGATION_LIMITS = Object.freeze({ maxDepth: 2, maxPerTurn: 4 });

/** How far sub-agents may nest, and how many one turn may start; the model is told when it hits one. */
export const DelegationLimitsSchema = z.object({
  maxDepth: z.number().int().min(1).max(10).default(DEFAULT_DELEGATION_LIMITS.maxDepth),
  maxPerTurn: z.number().int().min(1).max(20).default(DEFAULT_DELEGATION_LIMITS.maxPerTurn),
});

/** An agent is configuration: one workflow serves them all. */
export const AgentDefinitionSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/, 'agent names are lower-case words joined by "-"'),
  description: z.string().min(1),
  modelTier: ModelTierSchema,
  /** Where this agent's model calls go; absent means the worker's provider (AGENT_MODEL_PROVIDER). */
  provider: ModelProviderSchema.optional(),
  tools: z.array(z.string().min(1)),
  systemPrompt: z.string().min(1),
  maxIterations: z.number().int().positive(),
  maxTokens: z.number().int().positive().default(4_096),
  approval: ToolApprovalSchema.optional(),
  /** The spend budget of this agent's runs unless a run sets its own (issue 34; the run's wins, field by field). */
  budget: BudgetSchema.optional(),
  /** Who may decide this agent's parked calls (names as decisions carry them); absent means anyone. */
  approvers: z.array(z.string().min(1).max(200)).min(1).optional(),
  /** `per-run` gives each run its own folder, `<AGENT_WORKSPACE>/runs/<workflowId>`; `shared` uses the root. */
  workspace: z.enum(['shared', 'per-run']).default('shared'),
  /** Lets tool commands reach the network (off by default; a run may also allow it). */
  network: z.boolean().default(false),
  /** Environment variables (names) tool processes of this agent may see, besides PATH, HOME, LANG and TERM. */
  env: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'environment variable names are letters, digits and _'))
    .superRefine((names, ctx) => {
      const refused = names.filter(isCodeLoadingVariable);
      if (refused.length > 0) ctx.addIssue({ code: 'custom', message: codeLoadingRefusal('env', refused) });
    })
    .default([]),
  /**
   * What each of this agent's commands may use: cpuSeconds, memoryBytes, fileSizeBytes, openFiles,
   * processes, tmpBytes, and for the whole command totalMemoryBytes, totalProcesses, cpuCores (see
   * command-limits.ts for the defaults). Absent fields keep their defaults.
   */
  limits: CommandLimitsSchema.optional(),
  // prefault: an absent budget is parsed as {}, so the field defaults above are the only ones.
  context: ContextBudgetSchema.prefault({}),
  /** MCP servers (names from the worker's `mcpServers`) whose every tool this agent gets. */
  mcpServers: z.array(z.string().min(1)).default([]),
  /** Nexus operations this agent may call as tools (nexus-tool.ts); each runs from the workflow once allowed. */
  nexusTools: z
    .array(NexusToolSchema)
    .superRefine((tools, ctx) => {
      const names = tools.map(nexusToolName);
      const twice = names.filter((name, i) => names.indexOf(name) !== i);
      if (twice.length > 0) ctx.addIssue({ code: 'custom', message: `two Nexus tools are named ${[...new Set(twice)].map((n) => `"${n}"`).join(', ')}; give one a "name"` });
    })
    .default([]),
  /**
   * The tools that end this agent's runs, in the shape its prompts expect: `complete_task` (ours),
   * `task_completed` (Peekaboo's) or `attempt_completion` (drowcoder's). The first is the one the
   * system prompt names.
   */
  completionTools: z
    .array(CompletionToolNameSchema)
    .min(1, 'an agent needs at least one completion tool, e.g. ["complete_task"]')
    .refine((names) => new Set(names).size === names.length, 'list each completion tool once')
    .default(() => ['complete_task' as const]),
  /**
   * The typed result this agent's runs return: a zod schema (in code) or a JSON Schema object (in a
   * config file). The completion tool then requires an `output` that matches it; a run's own
   * `outputSchema` overrides it.
   */
  outputSchema: z.union([z.custom<z.ZodType>((value) => value instanceof z.ZodType, 'expected a zod schema'), JsonSchemaObjectSchema]).optional(),
  /** Agents this one may hand sub-tasks to with `delegate_task` (each runs as a child run). */
  subAgents: z.array(z.string().min(1)).default([]),
  /** Agents this one may hand the whole run to with `handoff`. */
  handoffs: z.array(z.string().min(1)).default([]),
  delegation: DelegationLimitsSchema.prefault({}),
  guardrails: z.array(GuardrailSchema).default([]),
  approvalHandler: ApprovalHandlerSchema.optional(),
  /** The permission mode this agent's runs start in unless the run names one (see permission-mode.ts). */
  mode: PermissionModeSchema.optional(),
  /** model, thinking, effort, temperature, serverTools (model-options.ts); checked together at worker start. */
  ...ModelOptionsShape,
});
export type AgentDefinitionInput = z.input<typeof AgentDefinitionSchema>;
export type AgentDefinition = z.output<typeof AgentDefinitionSchema>;
