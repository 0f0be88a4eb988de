import { budgetCrossing, ownPendingBudget, raiseProblem } from './budget';
import type { RunState } from './run-state';
import type { TransitionContext } from './transition-context';

/**
 * Before a model call (advance, when the model is next): parks the run when the call would cross its
 * budget, telling the worker's handlers once per wait, and unparks it when it fits again (a raise).
 * True while the run stays parked.
 */
export function parkedByBudget(state: RunState, ctx: TransitionContext): boolean {
  const budget = state.budget;
  // A model call already under way (its retries) was checked when it started.
  if (!budget || state.modelCall) return false;
  const limit = budgetCrossing(state, budget);
  if (!limit) {
    budget.parkedAt = undefined;
    return false;
  }
  if (!budget.parkedAt) {
    budget.parkedAt = ctx.at;
    ctx.emit(state, 'budgetExceeded', { ...ownPendingBudget(state)!, limit }, `budget-${budget.parkedAt}`);
  }
  return true;
}

/** An approver's raise (checked by the handler; checked again here, as the state may have moved). */
export function onBudgetRaised(state: RunState, raise: { maxUsd?: number; maxTokens?: number; by?: string }, ctx: TransitionContext): string | undefined {
  const problem = raiseProblem(state.budget, raise);
  if (problem) return problem;
  const budget = state.budget!;
  if (raise.maxUsd !== undefined) budget.maxUsd = raise.maxUsd;
  if (raise.maxTokens !== undefined) budget.maxTokens = raise.maxTokens;
  ctx.emit(state, 'budgetRaised', { maxUsd: budget.maxUsd, maxTokens: budget.maxTokens, by: raise.by }, `raise-${ctx.at}`);
  return undefined;
}

/** The budget wait timed out: the run ends `budget_exhausted`, a partial result that can be resumed. */
export function budgetTimedOut(state: RunState, ctx: TransitionContext): void {
  const parkedAt = state.budget?.parkedAt;
  if (!parkedAt || state.outcome || Date.parse(parkedAt) + state.input.approvalTimeoutSeconds * 1000 > ctx.now) return;
  state.outcome = { kind: 'budget_exhausted' };
  ctx.emit(state, 'agentEnded', { status: 'budget_exhausted', completion: state.completion, iterations: state.iteration, usage: state.usage, reason: `no one raised the budget within ${state.input.approvalTimeoutSeconds}s` });
}
