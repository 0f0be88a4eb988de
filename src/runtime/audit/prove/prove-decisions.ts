// The second half of a proof, from the log's side: every decision line of the run belongs to one of
// its links and to a call its history has, a decision that lets a call run was followed by the call
// (unless the run stopped first), and every decision a person sent and the run applied has its line.
import type { LogLine } from './audit-lines';
import { ALLOWING, lineText, report, type ProofContext } from './proof-context';

/** One row of the proof's table of decision lines. */
export interface ProofDecision {
  callId: string;
  tool: string;
  decision: string;
  approver?: string;
  via?: string;
  line: string;
  /** What became of the call: `ran`, `not run, as decided`, `not run: the run was canceled`, ... */
  status: string;
  ok: boolean;
}

function statusOf(ctx: ProofContext, line: LogLine): string {
  const { callId, decision } = line.record;
  const { facts } = ctx;
  const links = facts.links;
  const link = links.find((l) => l.runId === line.record.runId);
  if (!link) {
    const at = Date.parse(line.record.at);
    const end = links[links.length - 1]!.closedAt ?? Number.POSITIVE_INFINITY;
    if (at < links[0]!.startedAt || at > end) return 'another run under this workflow id';
    report(ctx, callId, 'foreign_decision', `${lineText(line)} names run id ${line.record.runId ?? '(none)'}, which is no link of this run (${links.map((l) => l.runId).join(', ')}), though its time falls inside the run: it was copied from another run`);
    return 'not of this run';
  }
  const known = facts.modelCalls.has(callId) || facts.toolRuns.some((r) => r.callId === callId);
  if (!known) {
    report(ctx, callId, 'unknown_call', `${lineText(line)} decides ${callId}, which the model never asked for in this run's history`);
    return 'no such call';
  }
  const ran = facts.toolRuns.some((r) => r.callId === callId);
  const allows = ALLOWING.has(decision ?? '');
  if (ran) return allows ? 'ran' : 'ran, though refused';
  if (!allows) return 'not run, as decided';
  const end = links[links.length - 1]!.end;
  if (end !== 'completed') return `not run: the run ${end === 'open' ? 'is still going' : `ended ${end.replace('_', ' ')}`}`;
  report(ctx, callId, 'approved_not_run', `${lineText(line)} records ${decision}, and the run completed without running ${callId}`);
  return 'never ran';
}

/**
 * Checks each decision line of the workflow id (`lines`: this run's and any other run id's), and that
 * each decision the run applied from a person's update has a line.
 */
export function proveDecisions(ctx: ProofContext, lines: readonly LogLine[]): ProofDecision[] {
  const rows = lines
    .filter((l) => l.record.kind === 'decision')
    .map((line) => {
      const found = ctx.problems.length;
      const status = statusOf(ctx, line);
      const { callId, tool, decision, approver, via } = line.record;
      return { callId, tool, decision: decision ?? '?', approver, via, line: lineText(line), status, ok: ctx.problems.length === found };
    });
  for (const sent of ctx.facts.messages) {
    const callId = String(sent.payload.callId);
    // A decision on a sub-agent's call is forwarded to the run that waits for it, which writes the line.
    if (sent.via !== 'update' || sent.failed || !ctx.facts.modelCalls.has(callId)) continue;
    if (ctx.lines.some((l) => l.record.kind === 'decision' && l.record.callId === callId)) continue;
    report(ctx, callId, 'unlogged_decision', `the run accepted ${String(sent.payload.decision)} by ${String(sent.payload.approver ?? 'no one')} on ${callId} (update, event ${sent.at.event}), and no decision line records it`);
  }
  return rows;
}
