import { workflowInfo } from '@temporalio/workflow';

/**
 * When a run hands over to a new link with continue-as-new. Temporal suggests it at 4,096 events or
 * 4 MiB; we go a little earlier so the checkpoint payload and a final turn always fit. A run may
 * lower the thresholds (tests and benchmarks do, to cross boundaries quickly).
 */
export interface HistoryBudget {
  maxEvents: number;
  maxBytes: number;
}

export const DEFAULT_HISTORY_BUDGET: HistoryBudget = { maxEvents: 3_000, maxBytes: 3 * 1024 * 1024 };

/**
 * The events a link makes of its own before its budget may end it (patch `link-makes-progress`): a
 * model turn with its tools is about a dozen. Without it, a link whose start alone (its checkpoint,
 * agent, preferences, memo and search attributes) filled a small budget handed over at once, and so
 * did the next, for ever: the fuzzer's seed 8 ran 141 links at `maxEvents: 50` and did nothing.
 */
export const LINK_PROGRESS_EVENTS = 20;

/**
 * `linkStart`: the history's length when the link first asked for a step (patch `link-makes-progress`);
 * the budget counts only once the link has made `LINK_PROGRESS_EVENTS` of its own. The server's own
 * suggestion always counts.
 */
export function historyIsFull(budget: HistoryBudget, linkStart?: number): boolean {
  const info = workflowInfo();
  if (info.continueAsNewSuggested) return true;
  if (linkStart !== undefined && info.historyLength < linkStart + LINK_PROGRESS_EVENTS) return false;
  return info.historyLength >= budget.maxEvents || info.historySize >= budget.maxBytes;
}
