import type { TokenUsage } from '../../contract/messages';
import type { PendingBudget } from '../../contract/budget';
import { costOfUsage } from '../cost/usage-cost';
import type { RunState } from './run-state';
import type { BudgetPrice, RunBudget } from './state/budget';

/**
 * The spend budget's arithmetic (issue 34), pure so the machine can ask it before every model call.
 * "Spent" is the run's cost estimate (the same one the console shows): input, output (thinking is
 * output), cache writes and reads at the model's price, plus server tool requests. The next call's
 * worst case is its `max_tokens` of output at the model's output price.
 */

/** Every token the API counted: input, output, cache reads and cache writes. */
export const tokensOf = (usage: TokenUsage): number => usage.inputTokens + usage.outputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;

/** The estimated USD of `usage` at `price`: the one cost formula, with the server tool prices the budget was priced with. */
export function usdOf(usage: TokenUsage, price: BudgetPrice): number {
  return costOfUsage(usage, price, price.requests);
}

/** What the run has spent so far, in USD (when it knows the price) and tokens. */
export function spentOf(state: Pick<RunState, 'usage'>, budget: RunBudget): { usd?: number; tokens: number } {
  return { ...(budget.price ? { usd: usdOf(state.usage, budget.price) } : {}), tokens: tokensOf(state.usage) };
}

/**
 * Which limit the next model call would cross, at worst, or undefined when it fits: spent so far plus
 * `callTokens` of output (at the output price for USD).
 */
export function budgetCrossing(state: Pick<RunState, 'usage'>, budget: RunBudget): 'usd' | 'tokens' | undefined {
  const spent = spentOf(state, budget);
  if (budget.maxTokens !== undefined && spent.tokens + budget.callTokens > budget.maxTokens) return 'tokens';
  if (budget.maxUsd !== undefined && budget.price && (spent.usd ?? 0) + (budget.callTokens * budget.price.output) / 1_000_000 > budget.maxUsd) return 'usd';
  return undefined;
}

/** Rounds USD for people to read (the estimate is not more precise than a ten-thousandth of a dollar). */
const roundUsd = (usd: number) => Math.round(usd * 10_000) / 10_000;

/** The status's `pendingBudget` of a run parked by its budget; undefined while it runs. */
export function pendingBudgetOf(state: Pick<RunState, 'usage' | 'budget' | 'workflowId' | 'childWaiting'>): PendingBudget | undefined {
  return ownPendingBudget(state) ?? Object.values(state.childWaiting).find((w) => w.budget)?.budget;
}

/** This run's own budget wait (not its sub-agents'). */
export function ownPendingBudget(state: Pick<RunState, 'usage' | 'budget' | 'workflowId'>): PendingBudget | undefined {
  const budget = state.budget;
  if (!budget?.parkedAt) return undefined;
  const spent = spentOf(state, budget);
  return {
    ...(spent.usd !== undefined ? { spentUsd: roundUsd(spent.usd) } : {}),
    ...(budget.maxUsd !== undefined ? { maxUsd: budget.maxUsd } : {}),
    spentTokens: spent.tokens,
    ...(budget.maxTokens !== undefined ? { maxTokens: budget.maxTokens } : {}),
    since: budget.parkedAt,
    workflowId: state.workflowId,
  };
}

/**
 * Why a raise is refused, or undefined when it may apply: a limit the run has no budget for, or one
 * that would not be higher than the current one, changes nothing a person meant.
 */
export function raiseProblem(budget: RunBudget | undefined, raise: { maxUsd?: number; maxTokens?: number }): string | undefined {
  if (!budget) return 'this run has no budget to raise (start it with budget: { maxUsd } or agentctl run --budget-usd)';
  if (raise.maxUsd !== undefined) {
    if (budget.maxUsd === undefined) return 'this run has no USD limit to raise (its budget sets maxTokens only)';
    if (raise.maxUsd <= budget.maxUsd) return `maxUsd ${raise.maxUsd} is not above the current ${budget.maxUsd}: a raise names the new, higher limit`;
  }
  if (raise.maxTokens !== undefined) {
    if (budget.maxTokens === undefined) return 'this run has no token limit to raise (its budget sets maxUsd only)';
    if (raise.maxTokens <= budget.maxTokens) return `maxTokens ${raise.maxTokens} is not above the current ${budget.maxTokens}: a raise names the new, higher limit`;
  }
  return undefined;
}

/**
 * The budget a sub-agent's run gets (issue 34): what is left of this run's, shared equally by the
 * delegations of the current turn (they may run side by side, and none sees the others' spend), so
 * the tree never spends past this run's limits. The child's usage rolls up into this run's when it
 * finishes (on-team), and this run's next check counts it. Undefined when this run has no budget.
 */
export function childBudgetOf(state: Pick<RunState, 'usage' | 'budget' | 'turn'>): { maxUsd?: number; maxTokens?: number } | undefined {
  const budget = state.budget;
  if (!budget) return undefined;
  const spent = spentOf(state, budget);
  const siblings = Math.max(1, state.turn?.calls.filter((c) => c.name === 'delegate_task' && !c.result).length ?? 1);
  // A share too small to be a positive limit still parks the child at once, which is what it should do.
  const MIN_USD = 0.000001;
  return {
    ...(budget.maxUsd !== undefined ? { maxUsd: Math.max(MIN_USD, (budget.maxUsd - (spent.usd ?? 0)) / siblings) } : {}),
    ...(budget.maxTokens !== undefined ? { maxTokens: Math.max(1, Math.floor((budget.maxTokens - spent.tokens) / siblings)) } : {}),
  };
}
