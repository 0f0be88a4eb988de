import type { Client } from '@temporalio/client';
import type { Command } from '../../client/cli-context';
import { listPendingCalls, queryStatus, stringFlag } from '../../client/approval-helpers';
import { AGENT_RUN_WORKFLOW_TYPE } from '../../contract/agent-run-api';
import { AgentStatusKey } from '../../contract/search-attributes';
import type { RunStatus } from '../../contract/run-status';
import { terminalSafe } from '../../client/terminal-safe';
import { listingClient } from '../../client/listing-client';

/** Runs parked on a person, found through the search attribute every run keeps up to date. */
export const PENDING_QUERY = `WorkflowType = "${AGENT_RUN_WORKFLOW_TYPE}" AND AgentStatus IN ("waiting_approval","waiting_input","waiting_budget") AND ExecutionStatus = "Running"`;

/** A short deadline per run: one run whose worker is down must not stall the whole listing. */
const STATUS_TIMEOUT_MS = 5_000;

export interface PendingRun {
  workflowId: string;
  runId: string;
  /** From the search attribute, so it is known even when the status query cannot be answered. */
  phase: string;
  taskQueue: string;
  startTime: string;
  status?: Pick<RunStatus, 'agent' | 'task' | 'user' | 'pendingApprovals' | 'pendingQuestion' | 'pendingBudget'>;
  statusError?: string;
  /** A sub-agent's run: its waits show under the root's entry instead. */
  subAgent?: boolean;
}

export async function listPendingRuns(client: Client, limit: number): Promise<PendingRun[]> {
  const runs: PendingRun[] = [];
  for await (const info of listingClient(client).workflow.list({ query: PENDING_QUERY, pageSize: Math.min(limit, 100) })) {
    runs.push({
      workflowId: info.workflowId,
      runId: info.runId,
      phase: String(info.typedSearchAttributes.get(AgentStatusKey) ?? 'unknown'),
      taskQueue: info.taskQueue,
      startTime: info.startTime.toISOString(),
    });
    if (runs.length >= limit) break;
  }
  await Promise.all(
    runs.map(async (run) => {
      try {
        const status = await queryStatus(client.workflow.getHandle(run.workflowId), STATUS_TIMEOUT_MS);
        const { agent, task, user, pendingApprovals, pendingQuestion, pendingBudget, lineage } = status;
        run.status = { agent, task, user, pendingApprovals, pendingQuestion, ...(pendingBudget ? { pendingBudget } : {}) };
        // A sub-agent's waits are listed under its root run, which forwards decisions to it.
        if (lineage && lineage.depth > 0) run.subAgent = true;
      } catch (error) {
        run.statusError = error instanceof Error ? error.message : String(error);
      }
    }),
  );
  return runs.filter((run) => !run.subAgent);
}

/** What a run parked by its budget spent, against which limits. */
function budgetLine(b: NonNullable<RunStatus['pendingBudget']>): string {
  const usd = b.maxUsd !== undefined ? `$${b.spentUsd ?? '?'} of $${b.maxUsd}` : undefined;
  const tokens = b.maxTokens !== undefined ? `${b.spentTokens} of ${b.maxTokens} tokens` : `${b.spentTokens} tokens`;
  return `next model call would cross it: spent ${[usd, tokens].filter(Boolean).join(', ')}`;
}

function render(runs: PendingRun[]): string {
  if (runs.length === 0) return 'No run is waiting for approval, input or a budget raise.';
  return runs
    .map((run) => {
      const head = `${run.workflowId}  ${run.phase}${run.status ? `  ${run.status.agent}  user=${run.status.user}` : ''}`;
      if (!run.status) return `${head}\n  (details unavailable: ${terminalSafe(run.statusError ?? '')} Task queue: ${run.taskQueue}.)`;
      const lines = [head, `  task: ${terminalSafe(run.status.task.slice(0, 100))}`];
      if (run.status.pendingApprovals.length > 0) lines.push(listPendingCalls(run.status.pendingApprovals, run.workflowId));
      if (run.status.pendingQuestion) lines.push(`  question: ${terminalSafe(run.status.pendingQuestion.question)}`);
      if (run.status.pendingBudget) lines.push(`  budget: ${budgetLine(run.status.pendingBudget)}; raise it: agentctl budget ${run.workflowId} --raise-usd N`);
      return lines.join('\n');
    })
    .join('\n\n');
}

/** `agentctl pending`: every run waiting for an approval or an answer, with what it waits for. */
export const pendingCommand: Command = {
  name: 'pending',
  usage: 'agentctl pending [--limit N] [--json]',
  summary: 'list runs waiting for approval or input',
  async run(ctx) {
    const limit = Number(stringFlag(ctx, 'limit') ?? 50);
    const runs = await listPendingRuns(await ctx.client(), Number.isFinite(limit) && limit > 0 ? limit : 50);
    ctx.print(runs, () => render(runs));
    return 0;
  },
};
