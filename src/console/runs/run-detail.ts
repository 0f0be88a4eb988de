// Everything the run view shows about one run, read fresh from Temporal on each poll: `describe`
// (execution state, pending children, the model's streamed text in the activity heartbeat) and the
// `status` query (tasks, tool calls, usage, completion).
import type { Client } from '@temporalio/client';
import { queryStatus } from '../../client/approval-helpers';
import { liveModelText, type LiveModelText } from '../../client/live-model-text';
import { estimateCost, type CostEstimate, type ModelPrices } from '../../runtime/model/model-prices';
import type { RunStatus } from '../../contract/run-status';
import { argumentsHash } from '../../core/approvals/signatures/signed-message';
import type { RunRow } from './run-list';

export interface ChildRun {
  workflowId: string;
  execution: string;
  agent?: string;
}

export interface RunDetail {
  workflowId: string;
  runId: string;
  execution: string;
  startTime: string;
  closeTime?: string;
  taskQueue: string;
  parentWorkflowId?: string;
  status?: RunStatus;
  statusError?: string;
  liveText?: LiveModelText;
  children: ChildRun[];
  /** A link to the run in the Temporal Web UI, when the console knows where that is. */
  temporalUiUrl?: string;
  /** The estimated cost of `status.usage`, or why there is none. */
  cost?: CostEstimate;
}

/** What the cost estimate needs: prices per model id, and the model id of each tier. */
export interface RunPricing {
  prices: ModelPrices;
  models: Readonly<Record<string, string>>;
}

/**
 * The run's usage priced at the model of its agent's tier. All of it: tokens of context summaries
 * (fast tier) and of sub-agents, which the run adds to its own, are priced the same, so it is an estimate.
 */
export function runCost(status: RunStatus, pricing: RunPricing): CostEstimate {
  const model = status.model ?? (status.modelTier ? pricing.models[status.modelTier] : undefined);
  if (!model) return { model: status.modelTier ?? 'unknown', unknown: status.modelTier ? `no model id for tier ${status.modelTier}` : 'the run does not report its model tier' };
  return estimateCost(status.usage, model, pricing.prices);
}

/** `<base>/namespaces/<ns>/workflows/<id>`: the Web UI's page for a workflow id (its latest run). */
export function temporalUiUrl(base: string | undefined, namespace: string, workflowId: string): string | undefined {
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

export async function loadRunDetail(
  client: Client,
  workflowId: string,
  options: { uiBaseUrl?: string; knownRuns?: readonly RunRow[]; statusTimeoutMs?: number; pricing?: RunPricing },
): Promise<RunDetail> {
  const handle = client.workflow.getHandle(workflowId);
  const description = await handle.describe();
  const running = description.status.name === 'RUNNING';
  const [status, liveText] = await Promise.all([
    queryStatus(handle, options.statusTimeoutMs ?? 3_000).then(
      // Each parked call with the hash of its arguments: what "Approve all" sends back for the calls shown.
      (s) => ({ status: { ...s, pendingApprovals: s.pendingApprovals.map((p) => ({ ...p, argumentsHash: argumentsHash(p.input) })) } }),
      (error: unknown) => ({ statusError: error instanceof Error ? error.message : String(error) }),
    ),
    running ? liveModelText(description, client.options.loadedDataConverter) : Promise.resolve(undefined),
  ]);
  const children = new Map<string, ChildRun>();
  for (const child of description.raw.pendingChildren ?? []) {
    if (child.workflowId) children.set(child.workflowId, { workflowId: child.workflowId, execution: 'RUNNING' });
  }
  for (const row of options.knownRuns ?? []) {
    if (row.parentWorkflowId === workflowId) children.set(row.workflowId, { workflowId: row.workflowId, execution: row.execution, agent: row.agent });
  }
  return {
    workflowId,
    runId: description.runId,
    execution: description.status.name,
    startTime: description.startTime.toISOString(),
    closeTime: description.closeTime?.toISOString(),
    taskQueue: description.taskQueue,
    parentWorkflowId: description.parentExecution?.workflowId ?? undefined,
    ...status,
    liveText,
    children: [...children.values()],
    temporalUiUrl: temporalUiUrl(options.uiBaseUrl, client.options.namespace, workflowId),
    cost: 'status' in status && options.pricing ? runCost(status.status, options.pricing) : undefined,
  };
}
