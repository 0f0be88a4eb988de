import { z } from 'zod';
import { ToolApprovalSchema } from '../approvals/approval-policy';
import { ModelTierSchema } from '../model/model-tiers';

/** How much of the model's context window a run may fill before older turns are summarized. */
export const ContextBudgetSchema = z.object({
  windowTokens: z.number().int().positive().default(200_000),
  /** Compact when the estimated prompt passes this share of the window. */
  targetShare: z.number().gt(0).lt(1).default(0.6),
  /** Turns (assistant message + its tool results) kept verbatim at the end of the conversation. */
  keepRecentTurns: z.number().int().min(1).default(6),
});
export type ContextBudget = z.infer<typeof ContextBudgetSchema>;

/** An agent is configuration: one workflow serves them all. */
export const AgentDefinitionSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/, 'agent names are lower-case words joined by "-"'),
  description: z.string().min(1),
  modelTier: ModelTierSchema,
  tools: z.array(z.string().min(1)),
  systemPrompt: z.string().min(1),
  maxIterations: z.number().int().positive(),
  maxTokens: z.number().int().positive().default(4_096),
  approval: ToolApprovalSchema.optional(),
  context: ContextBudgetSchema.default({ windowTokens: 200_000, targetShare: 0.6, keepRecentTurns: 6 }),
});
export type AgentDefinitionInput = z.input<typeof AgentDefinitionSchema>;
export type AgentDefinition = z.output<typeof AgentDefinitionSchema>;
