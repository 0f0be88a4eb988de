import type { RaiseBudget } from '../contract/budget';
import { spentOf } from '../core/machine/budget';
import type { RunState } from '../core/machine/run-state';
import type { RunBudget } from '../core/machine/state/budget';
import type { AuditEntry } from '../runtime/audit/audit-record';
import { runLineHeader, signedNote } from './audit-entry';

type Limits = { maxUsd?: number; maxTokens?: number };

/** The limits of a budget as they stand, without its price and wait. */
export const budgetLimits = (budget: RunBudget | undefined): Limits => ({
  ...(budget?.maxUsd !== undefined ? { maxUsd: budget.maxUsd } : {}),
  ...(budget?.maxTokens !== undefined ? { maxTokens: budget.maxTokens } : {}),
});

/** "$1 and 5000 tokens": a budget's limits as the audit line's reason and the raise's answer say them. */
export const budgetText = (b: Limits | undefined): string =>
  [b?.maxUsd !== undefined ? `$${b.maxUsd}` : '', b?.maxTokens !== undefined ? `${b.maxTokens} tokens` : ''].filter(Boolean).join(' and ');

const round = (usd: number) => Math.round(usd * 10_000) / 10_000;

/**
 * The audit line of a budget raise this run applied (patch accountableRaises, issue 34): who raised it, the
 * limits before (`from`) and after, whether the raise was signed and checked against the approver
 * registry (a raise is refused unsigned when there is one), and what the run had spent then.
 */
export function raiseAuditEntry(state: RunState, raise: RaiseBudget, from: Limits, via: 'signal' | 'update'): AuditEntry {
  const signed = state.approverKeys !== undefined;
  const by = raise.approver ?? '(no approver named)';
  const budget = state.budget;
  const spent = budget ? spentOf(state, budget) : undefined;
  const spentText = spent ? `; spent ${[spent.usd !== undefined ? `$${round(spent.usd)}` : '', `${spent.tokens} tokens`].filter(Boolean).join(' and ')}` : '';
  return {
    ...runLineHeader(state),
    kind: 'budget',
    tool: 'raiseBudget',
    // One line per raise: the workflow time it was applied at tells two raises of one iteration apart.
    callId: `raiseBudget:${new Date().toISOString()}`,
    ...(raise.approver !== undefined ? { approver: raise.approver } : {}),
    verified: signed,
    via,
    previousBudget: from,
    budget: budgetLimits(budget),
    reason: `budget raised from ${budgetText(from)} to ${budgetText(budgetLimits(budget))} by ${by} (${signedNote(signed)})${spentText}`,
  };
}
