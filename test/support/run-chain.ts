// Follows a workflow's continue-as-new chain from its first run, one history per link.
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

export interface ChainLink {
  runId: string;
  history: temporal.api.history.v1.IHistory;
  events: number;
  /** Bytes of the history as the server sends it (protobuf), the measure Temporal's limits use. */
  bytes: number;
}

/** Every run of `workflowId` from `firstRunId` on, following `continuedAsNew` to the latest. */
export async function runChain(client: Client, workflowId: string, firstRunId: string): Promise<ChainLink[]> {
  const links: ChainLink[] = [];
  for (let runId: string | undefined = firstRunId; runId; ) {
    const history: temporal.api.history.v1.IHistory = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events: temporal.api.history.v1.IHistoryEvent[] = history.events ?? [];
    links.push({ runId, history, events: events.length, bytes: temporal.api.history.v1.History.encode(history).finish().length });
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return links;
}
