import { z } from 'zod';

/**
 * A spend budget (issue 34): the most a run (and its sub-agents) may spend on model calls, in
 * estimated USD and in tokens. Before each model call the run adds what it has spent to the worst
 * case of that call; when the sum would cross a limit the run parks (`waiting_budget`) until one of
 * its approvers raises the budget (update `raiseBudget`) or the wait times out (`budget_exhausted`).
 */
export const BudgetSchema = z
  .object({
    /** Estimated USD, at the model's price (AGENT_MODEL_PRICES_FILE or the built-in estimates). */
    maxUsd: z.number().finite('maxUsd must be a finite number of USD').positive('maxUsd must be more than 0 USD').optional(),
    /** Tokens of every kind the API counts: input, output (thinking included), cache reads and writes. */
    maxTokens: z.number().int('maxTokens must be a whole number of tokens').positive('maxTokens must be more than 0').optional(),
  })
  .strict()
  .refine((b) => b.maxUsd !== undefined || b.maxTokens !== undefined, 'a budget sets maxUsd, maxTokens or both (e.g. { "maxUsd": 2 })');
export type Budget = z.infer<typeof BudgetSchema>;

/**
 * The payload of the `raiseBudget` update: the new limits (each replaces the old one and must be
 * higher), from one of the run's approvers, signed when the worker has an approver registry.
 */
export const RaiseBudgetSchema = z
  .object({
    maxUsd: z.number().finite().positive('maxUsd must be more than 0 USD').optional(),
    maxTokens: z.number().int().positive('maxTokens must be more than 0').optional(),
    approver: z.string().min(1).max(200).optional(),
    /** When the signature stops being good (ISO date-time, at most 24 h ahead); signed raises only. */
    expiresAt: z.string().optional(),
    /** Ed25519 (base64) over the canonical raise, `budgetMessage` of core/approvals/signatures/signed-message.ts. */
    signature: z.string().optional(),
  })
  .strict()
  .refine((r) => r.maxUsd !== undefined || r.maxTokens !== undefined, 'raiseBudget needs maxUsd, maxTokens or both');
export type RaiseBudget = z.infer<typeof RaiseBudgetSchema>;

/** What a run parked by its budget shows in its status: what it spent and the limits it met. */
export const PendingBudgetSchema = z.object({
  spentUsd: z.number().optional(),
  maxUsd: z.number().optional(),
  spentTokens: z.number(),
  maxTokens: z.number().optional(),
  /** When the run parked; the wait ends `approvalTimeoutSeconds` later. */
  since: z.string(),
  /** The run that waits: this one, or a sub-agent's run below it (a raise sent here is forwarded to it). */
  workflowId: z.string(),
});
export type PendingBudget = z.infer<typeof PendingBudgetSchema>;
