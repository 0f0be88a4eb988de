import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { AGENT_RUN_WORKFLOW_TYPE } from '../contract/agent-run-api';
import { AgentCostUsdKey, AgentNameKey } from '../contract/search-attributes';
import { roundUsd } from '../core/cost/usage-cost';
import { listingClient } from './listing-client';

// What runs cost, summed from Temporal's visibility store (`agentctl costs`, issue 34): each run's
// `AgentCostUsd` search attribute, which the run keeps at its estimated spend so far.

export const COST_GROUPINGS = ['agent', 'user', 'day'] as const;
export type CostGrouping = (typeof COST_GROUPINGS)[number];

export interface CostGroup {
  /** The agent, the user, or the day (UTC, YYYY-MM-DD) the runs started. */
  key: string;
  runs: number;
  costUsd: number;
  /** Runs of the group without a cost (a model with no price, a run from before the attribute). */
  unpriced: number;
}

export interface RunCosts {
  /** Runs started at or after this moment (ISO), or every run. */
  since?: string;
  by: CostGrouping;
  groups: CostGroup[];
  total: Omit<CostGroup, 'key'>;
}

/**
 * The runs to sum: agent runs that started a run of their own (a sub-agent's spend is already in
 * its root's figure) and only the last link of each (every link carries the run's whole spend so far,
 * so a link that continued as new would count it twice).
 */
export function costsQuery(since?: Date): string {
  const clauses = [`WorkflowType = '${AGENT_RUN_WORKFLOW_TYPE}'`, 'ParentWorkflowId IS NULL', "ExecutionStatus != 'ContinuedAsNew'"];
  if (since) clauses.push(`StartTime >= '${since.toISOString()}'`);
  return clauses.join(' AND ');
}

function groupKey(info: WorkflowExecutionInfo, by: CostGrouping): string {
  if (by === 'agent') return info.typedSearchAttributes.get(AgentNameKey) ?? '(unknown agent)';
  if (by === 'day') return info.startTime.toISOString().slice(0, 10);
  const user = info.memo?.user;
  return typeof user === 'string' ? user : '(unknown user)';
}

/** Sums the cost of the runs listed, grouped by agent, user or day (largest spend first; days in order). */
export function sumCosts(runs: Iterable<WorkflowExecutionInfo>, by: CostGrouping, since?: Date): RunCosts {
  const groups = new Map<string, CostGroup>();
  for (const info of runs) {
    const key = groupKey(info, by);
    const group = groups.get(key) ?? { key, runs: 0, costUsd: 0, unpriced: 0 };
    const cost = info.typedSearchAttributes.get(AgentCostUsdKey);
    group.runs += 1;
    if (cost === undefined) group.unpriced += 1;
    else group.costUsd += cost;
    groups.set(key, group);
  }
  const list = [...groups.values()].map((g) => ({ ...g, costUsd: roundUsd(g.costUsd) }));
  list.sort(by === 'day' ? (a, b) => a.key.localeCompare(b.key) : (a, b) => b.costUsd - a.costUsd || a.key.localeCompare(b.key));
  const total = list.reduce((t, g) => ({ runs: t.runs + g.runs, costUsd: t.costUsd + g.costUsd, unpriced: t.unpriced + g.unpriced }), { runs: 0, costUsd: 0, unpriced: 0 });
  return { ...(since ? { since: since.toISOString() } : {}), by, groups: list, total: { ...total, costUsd: roundUsd(total.costUsd) } };
}

/** Lists the runs started since `since` (every run without it) and sums their cost. */
export async function runCosts(client: Client, options: { by: CostGrouping; since?: Date }): Promise<RunCosts> {
  const runs: WorkflowExecutionInfo[] = [];
  for await (const info of listingClient(client).workflow.list({ query: costsQuery(options.since), pageSize: 1000 })) runs.push(info);
  return sumCosts(runs, options.by, options.since);
}
