import type { Client } from '@temporalio/client';
import { AGENT_RUN_WORKFLOW_TYPE } from '../../contract/agent-run-api';
import { listingClient } from '../listing-client';
import type { ReplayLab } from './replay-lab';
import type { ReplayReport } from './replay-report';
import type { DivergenceKind } from './shadow-session';

export interface BulkReplayOptions {
  /** A visibility query (`AgentName = 'general' AND CloseTime > '2026-11-20T00:00:00Z'`); shadows themselves are skipped. */
  query: string;
  /** At most this many runs (default 20). */
  limit?: number;
  /** Shadows at once (default 4). */
  concurrency?: number;
  /** Called with one line per run as it ends, for a progress display. */
  onProgress?: (line: string) => void;
}

export interface BulkReplayReport {
  query: string;
  runs: { workflowId: string; report?: ReplayReport; error?: string }[];
  summary: {
    replayed: number;
    /** Runs that could not be replayed (still working, unreadable, bodies gone); each run's `error` says why. */
    notReplayed: number;
    diverged: number;
    /** Divergences by the kind of their first step. */
    byKind: Record<DivergenceKind, number>;
    cost: { recordedUsd: number | null; shadowUsd: number | null; deltaUsd: number | null };
  };
}

/**
 * The agentRun runs the query names, newest first, without shadows (memo `replayOf`), at most `limit`.
 * A run whose memo this client cannot read is listed, so its replay reports why it failed instead of
 * the whole query failing.
 */
export async function listRuns(client: Client, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const info of listingClient(client).workflow.list({ query })) {
    if (info.type !== AGENT_RUN_WORKFLOW_TYPE || info.memo?.replayOf !== undefined || ids.includes(info.workflowId)) continue;
    ids.push(info.workflowId);
    if (ids.length >= limit) break;
  }
  return ids;
}

/** One run's progress line. */
export function progressLine(done: number, total: number, workflowId: string, outcome: { report?: ReplayReport; error?: string }): string {
  const { report, error } = outcome;
  const what = report
    ? report.firstDivergence
      ? `diverged at iteration ${report.firstDivergence.iteration} (${report.firstDivergence.kind}): ${report.firstDivergence.what}`
      : `no divergence (${report.modelCalls.replayed} model call(s) from the record, ${report.wouldRun.length} call(s) not run)`
    : `not replayed: ${error}`;
  return `[${done}/${total}] ${workflowId}: ${what}`;
}

const sum = (values: (number | null)[]) => (values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0));

/**
 * Replays the runs a visibility query finds, `concurrency` at a time, on one shadow worker, and sums
 * up how many diverged, at which kind of step, and what the model calls cost. A run that cannot be
 * replayed is listed with the reason; the others go on.
 */
export async function replayMany(lab: ReplayLab, client: Client, options: BulkReplayOptions): Promise<BulkReplayReport> {
  const ids = await listRuns(client, options.query, options.limit ?? 20);
  const runs: BulkReplayReport['runs'] = ids.map((workflowId) => ({ workflowId }));
  let next = 0;
  let done = 0;
  const work = async () => {
    while (next < ids.length) {
      const slot = runs[next++]!;
      try {
        slot.report = await lab.replay(slot.workflowId);
      } catch (error) {
        slot.error = (error as Error).message;
      }
      options.onProgress?.(progressLine(++done, ids.length, slot.workflowId, slot));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, ids.length)) }, work));
  const reports = runs.flatMap((run) => (run.report ? [run.report] : []));
  const byKind: Record<DivergenceKind, number> = { model_request: 0, tool_call: 0, decision: 0, completion: 0 };
  for (const report of reports) if (report.firstDivergence) byKind[report.firstDivergence.kind] += 1;
  const recordedUsd = sum(reports.map((r) => r.cost.recordedUsd));
  const shadowUsd = sum(reports.map((r) => r.cost.shadowUsd));
  return {
    query: options.query,
    runs,
    summary: {
      replayed: reports.length,
      notReplayed: runs.length - reports.length,
      diverged: reports.filter((r) => r.diverged).length,
      byKind,
      cost: { recordedUsd, shadowUsd, deltaUsd: recordedUsd === null || shadowUsd === null ? null : shadowUsd - recordedUsd },
    },
  };
}

const usd = (value: number | null) => (value === null ? 'unknown' : `$${value.toFixed(4)}`);

/** The summary as a person reads it. */
export function renderBulkSummary(report: BulkReplayReport): string {
  const { summary } = report;
  const kinds = Object.entries(summary.byKind).filter(([, n]) => n > 0).map(([kind, n]) => `${kind} ${n}`).join(', ');
  return [
    `Replayed ${summary.replayed} of ${report.runs.length} run(s) (query: ${report.query})`,
    `  diverged      ${summary.diverged}${kinds ? ` (first at: ${kinds})` : ''}`,
    `  same          ${summary.replayed - summary.diverged}`,
    `  not replayed  ${summary.notReplayed}${summary.notReplayed ? ` (${report.runs.filter((r) => r.error).map((r) => r.workflowId).join(', ')})` : ''}`,
    `  cost          recorded ${usd(summary.cost.recordedUsd)}, shadows ${usd(summary.cost.shadowUsd)}, delta ${summary.cost.deltaUsd === null ? 'unknown' : `${summary.cost.deltaUsd >= 0 ? '+' : '-'}$${Math.abs(summary.cost.deltaUsd).toFixed(4)}`}`,
  ].join('\n');
}
