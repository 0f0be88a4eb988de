import type { RunOutcome } from '../run-outcome';
import type { ApprovalView } from './shadow-decisions';
import type { Divergence, ShadowSession, WouldRun } from './shadow-session';
import type { RecordedRun } from './recorded-run';

/** How a run ended, as the report compares it. */
export interface CompletionView {
  /** completed, max_iterations, guardrail_tripped, failed, cancelled, terminated, timed_out, parked, or stopped (a shadow the replay stopped). */
  outcome: string;
  /** The agent's own word: its completion's status... */
  status?: string;
  /** ...and summary. */
  summary?: string;
  /** The iterations it took. */
  iterations?: number;
  /** Why it failed or was stopped. */
  reason?: string;
}

/**
 * The replay lab's answer for one run (issue 35's contract; `agentctl replay --json` prints it):
 * whether and where the shadow left the recorded run, what each did, what the shadow would have run,
 * and what the model calls cost.
 */
export interface ReplayReport {
  workflowId: string;
  shadowWorkflowId: string;
  diverged: boolean;
  firstDivergence: Divergence | null;
  /** Tool calls the recorded run's worker ran, and those the shadow's worker was asked for. */
  toolCallsRecorded: number;
  toolCallsShadow: number;
  /** Calls with side effects the shadow reached and did not run. */
  wouldRun: WouldRun[];
  completion: { recorded: CompletionView | null; shadow: CompletionView | null };
  /** USD at the model prices (AGENT_MODEL_PRICES_FILE over the built-in estimates); null without prices (`--no-cost`). The shadow pays only for live model calls. */
  cost: { recordedUsd: number | null; shadowUsd: number | null };
  /** Decisions on calls that parked: the recorded run's, and the shadow's (with where each came from). */
  approvals: { recorded: ApprovalView[]; shadow: ApprovalView[] };
  /** The recorded run's model calls; the shadow's, answered from the record or by the live model. */
  modelCalls: { recorded: number; replayed: number; live: number };
  /** Why the replay stopped the shadow, when it did. */
  stopped: string | null;
  /** What the reader should know about this replay (what was not compared, what was left out). */
  notes: string[];
}

/** How the recorded run ended, from its result or its last lifecycle event. */
export function recordedCompletion(recorded: RecordedRun): CompletionView {
  if (recorded.result) {
    const { status, completion, iterations } = recorded.result;
    return { outcome: status, ...(completion ? { status: completion.status, summary: completion.summary } : {}), iterations };
  }
  const ended = [...recorded.events].reverse().find((e) => e.name === 'agentEnded');
  const error = ended?.name === 'agentEnded' ? ended.data.error : undefined;
  return { outcome: recorded.ending, ...(error ? { reason: error } : {}) };
}

export function shadowCompletion(outcome: RunOutcome, session: ShadowSession): CompletionView {
  if (outcome.kind === 'completed') {
    const { status, completion, iterations } = outcome.result;
    return { outcome: status, ...(completion ? { status: completion.status, summary: completion.summary } : {}), iterations };
  }
  // The recorded run was parked, cancelled or terminated from outside there: the shadow ends as it did.
  if (session.atRecordEnd) return { outcome: session.recorded.ending, reason: session.stopReason ?? 'the shadow reached the end of the record' };
  if (session.stopReason !== undefined) return { outcome: 'stopped', reason: session.stopReason };
  return { outcome: outcome.kind, ...(outcome.kind === 'failed' ? { reason: outcome.message } : outcome.kind === 'terminated' && outcome.reason ? { reason: outcome.reason } : {}) };
}

/** Whether two endings are the same for the report: outcome, and the agent's own status and summary. */
export function sameCompletion(a: CompletionView, b: CompletionView): boolean {
  return a.outcome === b.outcome && a.status === b.status && a.summary === b.summary;
}

const usd = (value: number | null) => (value === null ? 'unknown (--no-cost)' : `$${value.toFixed(4)}`);

function completionText(view: CompletionView | null): string {
  if (!view) return '(none)';
  const word = view.status ? ` ${view.status}` : '';
  const summary = view.summary ? `: ${view.summary.length > 80 ? `${view.summary.slice(0, 79)}…` : view.summary}` : view.reason ? ` (${view.reason})` : '';
  return `${view.outcome}${word}${view.iterations !== undefined ? ` after ${view.iterations} iteration(s)` : ''}${summary}`;
}

function counted(list: { tool?: string; decision?: string }[], key: 'tool' | 'decision'): string {
  const counts = new Map<string, number>();
  for (const item of list) counts.set(String(item[key]), (counts.get(String(item[key])) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${name} ×${n}`).join(', ');
}

/** The report as a person reads it: a table of label and value, the divergence spelled out. */
export function renderReport(report: ReplayReport): string {
  const d = report.firstDivergence;
  const rows: [string, string][] = [
    ['diverged', report.diverged ? `yes, at iteration ${d!.iteration} (${d!.kind}): ${d!.what}` : 'no'],
    ...(d ? ([['  recorded', JSON.stringify(d.recorded)], ['  shadow', JSON.stringify(d.shadow)]] as [string, string][]) : []),
    ['model calls', `recorded ${report.modelCalls.recorded}; shadow ${report.modelCalls.replayed} from the record, ${report.modelCalls.live} live`],
    ['tool calls', `recorded ${report.toolCallsRecorded}, shadow ${report.toolCallsShadow}`],
    ['would run', report.wouldRun.length === 0 ? 'nothing' : `${report.wouldRun.length} (${counted(report.wouldRun, 'tool')}); ${report.wouldRun.filter((w) => w.recorded).length} as the recorded run ran them`],
    ...report.wouldRun.map((w): [string, string] => [`  iteration ${w.iteration}`, `${w.call}${w.recorded ? '  (recorded)' : ''}`]),
    ['completion', `recorded ${completionText(report.completion.recorded)}`],
    ['', `shadow   ${completionText(report.completion.shadow)}`],
    ['cost', `recorded ${usd(report.cost.recordedUsd)}, shadow ${usd(report.cost.shadowUsd)}`],
    ['approvals', `recorded ${report.approvals.recorded.length}${report.approvals.recorded.length ? ` (${counted(report.approvals.recorded, 'decision')})` : ''}, shadow ${report.approvals.shadow.length}${report.approvals.shadow.length ? ` (${report.approvals.shadow.filter((a) => a.source === 'recorded').length} as recorded, ${report.approvals.shadow.filter((a) => a.source === 'flag').length} by --decide)` : ''}`],
    ...(report.stopped ? ([['stopped', report.stopped]] as [string, string][]) : []),
    ...report.notes.map((note, i): [string, string] => [i === 0 ? 'notes' : '', note]),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [`Replay of ${report.workflowId} (shadow ${report.shadowWorkflowId})`, ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join('\n');
}
