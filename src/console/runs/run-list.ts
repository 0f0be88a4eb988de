// The runs the console shows, straight from Temporal visibility: the same `AgentName` / `AgentStatus`
// search attributes `agentctl list` filters on, plus where each run sits in a tree of sub-agents.
import type { Client } from '@temporalio/client';
import { listQuery, toListed, type ListedRun } from '../../client/list-runs';
import { listingClient } from '../../client/listing-client';

export interface RunRow extends ListedRun {
  taskQueue: string;
  parentWorkflowId?: string;
  rootWorkflowId: string;
}

/**
 * The visibility query: agent runs, without the closed links of a continue-as-new chain (the
 * workflow id lives on in the next link), narrowed by the console's optional extra filter.
 */
export function consoleRunsQuery(extra?: string): string {
  const clauses = [listQuery({}), `ExecutionStatus != 'ContinuedAsNew'`];
  if (extra) clauses.push(`(${extra})`);
  return clauses.join(' AND ');
}

/** The newest `limit` runs; a run whose memo this console cannot read is listed all the same. */
export async function listRuns(client: Client, options: { query: string; limit: number }): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for await (const info of listingClient(client).workflow.list({ query: options.query, pageSize: Math.min(options.limit, 100) })) {
    rows.push({
      ...toListed(info),
      taskQueue: info.taskQueue,
      parentWorkflowId: info.parentExecution?.workflowId ?? undefined,
      rootWorkflowId: info.rootExecution?.workflowId || info.workflowId,
    });
    if (rows.length >= options.limit) break;
  }
  return rows;
}
