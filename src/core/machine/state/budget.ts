import { z } from 'zod';

/**
 * The budget slice (issue 34, state version 9): the run's spend budget, fixed at start by
 * run-state-init.ts from the run's and the agent's `budget` (the run's wins) with the price the worker
 * knows for the run's model; raised by on-budget (update `raiseBudget`); `parkedAt` is set and
 * cleared by advance as the next model call would cross it or not. Absent: the run has no budget.
 */

/** USD per million tokens of the run's model, and per server tool request by the usage field's name. */
export const BudgetPriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  requests: z.record(z.string(), z.number().nonnegative()).default({}),
});
export type BudgetPrice = z.infer<typeof BudgetPriceSchema>;

export const RunBudgetSchema = z.object({
  maxUsd: z.number().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  /** The price of the run's model; required (checked at start) when `maxUsd` is set. */
  price: BudgetPriceSchema.optional(),
  /** `max_tokens` of one model call: the worst case a next call adds. */
  callTokens: z.number().int().positive(),
  /** When the run parked because its next model call would cross the budget; absent while it runs. */
  parkedAt: z.string().optional(),
});
export type RunBudget = z.infer<typeof RunBudgetSchema>;

export const BudgetSliceSchema = z.object({
  budget: RunBudgetSchema.optional(),
});
export type BudgetSlice = z.infer<typeof BudgetSliceSchema>;
