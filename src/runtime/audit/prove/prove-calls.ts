// The first half of a proof: every tool call the history ran that could have a side effect had
// exactly one decision line, written before the call was scheduled, allowing exactly what ran.
import type { LogLine } from './audit-lines';
import { anchorLine } from './anchor-line';
import { proveSignature } from './check-signature';
import { before, placeText, type ToolRun } from './history-facts';
import { ALLOWING, argumentsText, lineText, report, sameArguments, type ProofContext } from './proof-context';

/** One row of the proof's table of calls. */
export interface ProofCall {
  callId: string;
  tool: string;
  /** `activity #61`, `local #69` (with `link 2` in a chain of several). */
  ran: string;
  /** Why the call needs no decision (a read tool with a read-only permission), when it does not. */
  excluded?: string;
  decision?: string;
  line?: string;
  /** `valid`, `bad`, `missing`, `by <callId>` (settled by that call's "always"), or `-` when none was required. */
  signature?: string;
  ok: boolean;
}

/** A read tool reads, whoever allowed it; one a person let write is checked like any other call. */
function exclusion(ctx: ProofContext, run: ToolRun): string | undefined {
  const scope = run.tool ? ctx.facts.scopes.get(run.tool) : undefined;
  if (scope !== 'read') return undefined;
  if (run.how === 'local') return 'read tool';
  return run.permission?.writes === true ? undefined : 'read tool, read-only permission';
}

/**
 * Local runs of `runTool` record no call id in their markers. Each one writes a call line before it
 * finishes, so the call lines of a link that no scheduled activity accounts for are its local runs,
 * taken in the order they were written; the markers are in the order the runs finished.
 */
function nameLocalRuns(ctx: ProofContext): void {
  const scheduled = new Set(ctx.facts.toolRuns.filter((r) => r.how === 'activity').map((r) => r.callId));
  for (const link of ctx.facts.links) {
    const runs = ctx.facts.toolRuns.filter((r) => r.how === 'local' && r.at.link === link.index);
    const lines = ctx.lines
      .filter((l) => l.record.kind === 'call' && l.record.runId === link.runId && l.record.via !== 'api' && l.record.outcome !== 'unknown' && !scheduled.has(l.record.callId))
      .sort((a, b) => a.record.at.localeCompare(b.record.at) || a.seq - b.seq);
    if (runs.length !== lines.length) {
      report(ctx, '-', 'unmatched_local', `run ${link.runId} ran ${runs.length} tool call(s) as local activities, and the log has ${lines.length} call line(s) for calls that were not scheduled as activities`);
    }
    runs.forEach((run, i) => {
      const line = lines[i];
      if (line) Object.assign(run, { callId: line.record.callId, tool: line.record.tool, input: line.record.arguments });
    });
  }
}

/** The patch id (src/workflows/compat/patches.ts `ruleDecisionLines`) after which the workflow writes a line for rule-allowed calls. */
const RULE_DECISION_LINES = 'rule-decision-lines';
/** Patch `leanHistory`: its one marker stands for every patch listed before it, `ruleDecisionLines` included. */
const LEAN_HISTORY = 'lean-history';

const isDecision = (callId: string) => (l: LogLine) => l.record.kind === 'decision' && l.record.callId === callId;

function proveCall(ctx: ProofContext, run: ToolRun, row: ProofCall): void {
  const callId = row.callId;
  const where = placeText(run.at, ctx.facts.links);
  const callLines = ctx.lines.filter((l) => l.record.kind === 'call' && l.record.callId === callId);
  if (run.how === 'activity' && run.outcome === 'completed' && callLines.length === 0) {
    report(ctx, callId, 'missing_call_line', `the ${row.tool} activity (${where}) completed, and no call line of this run names ${callId}`);
  }
  for (const line of callLines) {
    if (run.how === 'activity' && !sameArguments(line.record.arguments, run.input)) {
      report(ctx, callId, 'arguments_mismatch', `the call line ${lineText(line)} records ${argumentsText(line.record.arguments)}, but the activity (${where}) received ${argumentsText(run.input)}`);
    }
  }
  row.excluded = exclusion(ctx, run);
  if (row.excluded) return;
  const decisions = ctx.lines.filter(isDecision(callId));
  if (decisions.length === 0) {
    const byRule = run.approval?.via === 'policy' || (run.how === 'local' && callLines.some((l) => l.record.via === 'policy'));
    // An execution with patch rule-decision-lines writes a line for such calls too: its absence is a missing decision.
    const recorded = ctx.facts.patches.get(run.at.link);
    const linesRuleCalls = recorded?.has(RULE_DECISION_LINES) === true || recorded?.has(LEAN_HISTORY) === true;
    if (byRule && !linesRuleCalls) report(ctx, callId, 'unlogged_rule', `${row.tool} ran (${where}) on a rule, a remembered choice or the run's mode; the workflow writes no decision line for those, so nothing shows the decision was made before the call`);
    else report(ctx, callId, 'missing_decision', `${row.tool} ran (${where}) under ${run.approval?.decision ?? 'a decision'} by ${run.approval?.approver ?? 'no one'}, and no decision line of this run names ${callId}`);
    return;
  }
  if (decisions.length > 1) report(ctx, callId, 'duplicate_decision', `${decisions.map(lineText).join(', ')} all decide ${callId}`);
  const line = decisions[decisions.length - 1]!;
  const d = line.record;
  row.decision = `${d.decision}${d.approver ? ` by ${d.approver}` : ''} (${d.via ?? '?'})`;
  row.line = lineText(line);
  if (!ALLOWING.has(d.decision ?? '')) report(ctx, callId, 'refused_but_ran', `${row.line} records ${d.decision}, yet ${row.tool} ran (${where})`);
  const allowed = d.editedArguments ?? d.arguments;
  if (run.how === 'activity' && !sameArguments(allowed, run.input)) {
    report(ctx, callId, 'arguments_mismatch', `${row.line} allows ${argumentsText(allowed)}, but the activity (${where}) received ${argumentsText(run.input)}`);
  }
  if (run.approval && (run.approval.decision !== d.decision || run.approval.approver !== d.approver)) {
    report(ctx, callId, 'approval_mismatch', `the activity ran under ${run.approval.decision} by ${run.approval.approver ?? 'no one'}; ${row.line} records ${d.decision} by ${d.approver ?? 'no one'}`);
  }
  const anchor = anchorLine(ctx, line);
  if (!anchor.ok) report(ctx, callId, 'unanchored', `${row.line}: ${anchor.detail}`);
  else if (before(run.completion, anchor.marker.completion)) {
    report(
      ctx,
      callId,
      'decided_late',
      `${row.line} was written by the recordAudit at ${placeText(anchor.marker.at, ctx.facts.links)}, in a workflow task that completed after the one that scheduled the call (${placeText(run.completion, ctx.facts.links)})`,
    );
  }
  const person = d.via === 'signal' || d.via === 'update';
  row.signature = ctx.keys && person ? proveSignature(ctx, line, run) : '-';
}

/** Checks every tool run of the history; the rows of the table, in the order the calls ran. */
export function proveCalls(ctx: ProofContext): ProofCall[] {
  nameLocalRuns(ctx);
  return ctx.facts.toolRuns.map((run) => {
    const row: ProofCall = { callId: run.callId ?? '?', tool: run.tool ?? '?', ran: `${run.how} ${placeText(run.at, ctx.facts.links)}`, ok: true };
    const found = ctx.problems.length;
    proveCall(ctx, run, row);
    row.ok = ctx.problems.length === found;
    return row;
  });
}
