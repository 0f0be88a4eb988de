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

export function historyIsFull(budget: HistoryBudget): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength >= budget.maxEvents || info.historySize >= budget.maxBytes;
}
