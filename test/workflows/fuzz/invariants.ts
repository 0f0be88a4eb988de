// The invariants every schedule must keep, checked against what the harness sent and was told (the
// trace) and what the server, the audit log, the canaries and the model saw (the evidence). Each
// violation names its invariant, so a report says which promise broke, not only that something did.
import type { AuditRecord } from '../../../src/runtime/audit/audit-record';
import { ONCE_TOOLS, WRITE_TOOLS } from './canaries';
import { StateLimits } from '../../../src/core/machine/run-state';
import type { Evidence, RunEvidence } from './evidence';
import type { Trace } from './executor';
import type { SentMessage } from './messenger';

export const INVARIANTS = {
  'update-answered': 'every update sent was answered: accepted with a result, or rejected with a reason; none hangs, none is abandoned',
  'no-handler': 'no update is refused with "No registered handler" (bug 1 of issue 31)',
  'status-answers': 'the status query answers at every moment of a run, the start of each link included',
  'answer-matches-log': 'an update answered applied has its effect in the audit log and the run\'s state; a refused one has none',
  'state-matches-audit': 'every decision a person sent that the audit log records stays in the run\'s state (none lost at a continue-as-new), and every one in the state is in the audit log',
  'tool-without-decision': 'no tool ran without a person\'s decision on disk before it started, or a rule that let it run',
  'decided-twice': 'no decision was applied twice',
  'tool-ran-twice': 'no tool that must run at most once ran twice',
  stuck: 'no run is stuck with work it could do: drained, it ends within the deadline',
  'run-failed': 'no run fails or retries a workflow task because of a message or an interleaving',
  replay: 'every link of every run replays from its history',
} as const;
export type Invariant = keyof typeof INVARIANTS;

export interface Violation {
  invariant: Invariant;
  detail: string;
}

const PERSON_ALLOWS = new Set(['approve', 'approve_always']);
const REFUSALS = new Set(['reject', 'reject_always', 'policy_reject', 'handler_reject', 'guardrail_reject', 'timed_out']);
const at = (trace: Trace, ms: number) => `+${ms - (trace.messages[0]?.sentAt ?? ms)}ms`;
const where = (trace: Trace, m: SentMessage) => `${m.name} ${m.tag} (sent ${at(trace, m.sentAt)}, link ${m.link}${m.edge ? `, at the ${m.edge} edge` : ''})`;

export function checkInvariants(trace: Trace, evidence: Evidence): Violation[] {
  return [...checkAnswers(trace), ...checkEffects(trace, evidence), ...checkStateAgainstAudit(evidence), ...checkTools(trace, evidence), ...checkRuns(trace, evidence)];
}

/** Every update answered, none by accident; the status query answers. */
function checkAnswers(trace: Trace): Violation[] {
  const violations: Violation[] = [];
  for (const m of trace.messages) {
    const outcome = m.outcome;
    if (m.via === 'query' && outcome?.type === 'error' && /starting/i.test(outcome.message)) {
      violations.push({ invariant: 'status-answers', detail: `${where(trace, m)} threw: ${outcome.message}` });
    }
    if (m.via !== 'update') continue;
    if (!outcome) {
      violations.push({ invariant: 'update-answered', detail: `${where(trace, m)} was never answered` });
    } else if (outcome.type === 'error') {
      violations.push({ invariant: 'update-answered', detail: `${where(trace, m)} was neither answered nor refused: ${outcome.message}` });
    } else if (outcome.type === 'refused' && /No registered handler/i.test(outcome.message)) {
      violations.push({ invariant: 'no-handler', detail: `${where(trace, m)} refused: ${outcome.message}` });
    } else if (outcome.type === 'refused' && /completed before the Update completed/i.test(outcome.message)) {
      const hung = trace.terminatedAt !== undefined && m.settledAt! >= trace.terminatedAt;
      violations.push({
        invariant: 'update-answered',
        detail: hung ? `${where(trace, m)} hung until the fuzzer terminated the stuck run` : `${where(trace, m)} was accepted, then abandoned when its run closed or continued as new: ${outcome.message}`,
      });
    }
  }
  return violations;
}

const applied = (m: SentMessage) => m.via === 'update' && m.outcome?.type === 'applied';
const refused = (m: SentMessage) => m.via === 'update' && (m.outcome?.type === 'refused' || m.outcome?.type === 'ended');
const decisionLines = (evidence: Evidence) => evidence.audit.filter((r) => r.kind === 'decision');
type KeptDecision = NonNullable<RunEvidence['status']>['decisions'][number];
/**
 * A run's decisions as its state keeps them: the checkpoint's whole list, else the status's last 10.
 * Both are bounded (StateLimits.decisions; the status shows 10): once a list is full, an older
 * decision missing from it was dropped by design, not lost, so `since` is the audit line of the
 * oldest decision the list still holds, and older lines are not looked for.
 */
function keptDecisions(evidence: Evidence, run: RunEvidence): { list: KeptDecision[]; since: number } {
  let list = run.status?.decisions ?? [];
  let bound = 10;
  try {
    const state = JSON.parse(run.checkpoint ?? '{}') as { decisions?: KeptDecision[] };
    if (Array.isArray(state.decisions)) [list, bound] = [state.decisions, StateLimits.decisions];
  } catch {
    // No checkpoint: the status's list.
  }
  const oldest = list[0];
  const line = oldest && evidence.audit.find((r) => r.kind === 'decision' && r.run === run.workflowId && r.callId === oldest.callId && r.approver === oldest.approver);
  return { list, since: list.length >= bound ? (line?.seq ?? Infinity) : 0 };
}
const decisionsInState = (evidence: Evidence) => evidence.runs.flatMap((r) => keptDecisions(evidence, r).list.map((d) => ({ ...d, run: r.workflowId })));
/** Whether the run that wrote an audit line keeps decisions that old (see keptDecisions). */
const stillKept = (evidence: Evidence, line: AuditRecord) => {
  const run = evidence.runs.find((r) => r.workflowId === line.run);
  return !run || line.seq >= keptDecisions(evidence, run).since;
};
/** Whether the model was sent a reply's or a follow-up's tag. */
const modelSaw = (evidence: Evidence, tag: string) => evidence.requests.some((r) => JSON.stringify(r.body.messages).includes(tag));
/** Whether a run's final state still holds it (a follow-up kept for `agentctl resume` when the run ended first). */
const stateKeeps = (evidence: Evidence, tag: string) => evidence.runs.some((r) => r.checkpoint?.includes(tag));

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What an applied answer says of one call it decided: applied (by this run), or delivered to a
 * sub-agent's run and "not applied yet" (issue 32's wording: that run checks the decision and applies
 * it or records why not), or not delivered to it, or, for a batch the run was cancelled in the middle
 * of, perhaps not delivered ("may not have reached").
 */
export function claimOf(answer: string, callId: string): 'applied' | 'delivered' | 'undelivered' | 'unknown' {
  const id = escaped(callId);
  if (new RegExp(`\\bfor ${id} delivered to \\S+, the sub-agent run that waits for it; not applied yet`).test(answer)) return 'delivered';
  const yet = answer.indexOf('not applied yet');
  if (yet >= 0) {
    const item = new RegExp(`(?:^|[ ,:])${id} → \\S+( \\(not delivered:)?`).exec(answer.slice(yet));
    if (item) return item[1] ? 'undelivered' : 'delivered';
  }
  // Forwarded by update (patch forward-by-update): each sub-agent run answers for its part,
  // "<calls> → <run>: applied (…)" / "refused (…)" / "not delivered (…)" / "sent, no answer (…)".
  const runs = answer.indexOf('sub-agent runs: ');
  if (runs >= 0) {
    const parts = answer.slice(runs).matchAll(/(?:sub-agent runs: |; )([^;→]*?) → \S+: (applied|refused|not delivered|sent, no answer) \(/g);
    for (const [, calls, said] of parts) {
      if (!calls!.split(', ').includes(callId)) continue;
      if (said === 'applied') return 'applied';
      return said === 'sent, no answer' ? 'unknown' : 'undelivered';
    }
  }
  const rest = /the rest \(([^)]*)\) may not have reached/.exec(answer);
  if (rest?.[1]?.split(', ').includes(callId)) return 'unknown';
  return 'applied';
}

/** The answer a caller got matches what the run did: the audit log, the state, what the model saw. */
function checkEffects(trace: Trace, evidence: Evidence): Violation[] {
  const violations: Violation[] = [];
  const lines = decisionLines(evidence);
  const state = decisionsInState(evidence);
  const rootStatus = evidence.runs[0]?.status;
  const endedEarly = trace.closedAs !== 'COMPLETED';
  for (const m of trace.messages) {
    const isDecision = m.name === 'decideApproval' || m.name === 'decideApprovals';
    if (isDecision && applied(m)) {
      for (const callId of m.callIds) {
        const line = lines.find((r) => r.callId === callId && r.approver === m.tag);
        const kept = state.find((d) => d.callId === callId && d.approver === m.tag);
        const answer = m.outcome?.type === 'applied' ? m.outcome.message : '';
        const ignored = evidence.runs.flatMap((r) => (r.status?.ignored ?? []).filter((i) => i.payload.includes(`"${m.tag}"`)).map((i) => `${r.workflowId} ignored it: ${i.reason}`))[0];
        const claim = claimOf(answer, callId);
        if (claim === 'unknown') continue;
        if (claim === 'undelivered') {
          if (line) violations.push({ invariant: 'answer-matches-log', detail: `${where(trace, m)} answered that its decision on ${callId} was not delivered ("${answer}"), but the audit log has it (line ${line.seq}, run ${line.run})` });
          continue;
        }
        // Delivered, not applied yet: the sub-agent's run applied it (checked below like any applied
        // decision) or recorded why not; doing neither loses it.
        if (claim === 'delivered' && !line) {
          if (!ignored) violations.push({ invariant: 'answer-matches-log', detail: `${where(trace, m)} answered that its decision on ${callId} was delivered to a sub-agent's run ("${answer}"), but no run applied it (no audit line) or recorded why not (nothing in its status's ignored): the decision was lost` });
          continue;
        }
        if (!line) violations.push({ invariant: 'answer-matches-log', detail: `${where(trace, m)} answered applied ("${answer}"), but the audit log has no decision on ${callId} by it${ignored ? `; ${ignored}` : ''}` });
        else if (!kept && rootStatus && stillKept(evidence, line)) violations.push({ invariant: 'answer-matches-log', detail: `${where(trace, m)} answered applied and its decision on ${callId} is in the audit log (line ${line.seq}, run ${line.run}), but not in the run's state: the decision was lost` });
      }
    }
    // "…but its answer did not come …: it may or may not have applied it": the answer claims neither.
    const hedged = m.outcome && 'message' in m.outcome && m.outcome.message.includes('may or may not have applied');
    if (isDecision && refused(m) && !hedged) {
      const line = lines.find((r) => r.approver === m.tag);
      if (line) violations.push({ invariant: 'answer-matches-log', detail: `${where(trace, m)} was refused ("${m.outcome && 'message' in m.outcome ? m.outcome.message : ''}"), but the audit log has its decision on ${line.callId} (line ${line.seq})` });
      const kept = state.find((d) => d.approver === m.tag);
      if (kept) violations.push({ invariant: 'answer-matches-log', detail: `${where(trace, m)} was refused, but the state of ${kept.run} has its decision on ${kept.callId}` });
    }
    if (m.name === 'setMode') {
      const line = evidence.audit.find((r) => r.kind === 'mode' && r.reason === m.tag);
      if (applied(m) && !line) violations.push({ invariant: 'answer-matches-log', detail: `${where(trace, m)} answered applied, but the audit log has no mode line for it` });
      if (refused(m) && line) violations.push({ invariant: 'answer-matches-log', detail: `${where(trace, m)} was refused, but the audit log has its mode line (line ${line.seq})` });
    }
    // A reply or a follow-up answered applied reaches the model, or stays in the run's state (a run that
    // ended first keeps it for a resume); a cancelled or terminated run may have had no chance to ask.
    if ((m.name === 'submitReply' || m.name === 'sendMessage') && applied(m) && !modelSaw(evidence, m.tag) && !stateKeeps(evidence, m.tag) && !endedEarly) {
      const text = m.outcome?.type === 'applied' ? m.outcome.message : '';
      violations.push({ invariant: 'answer-matches-log', detail: `${where(trace, m)} answered applied ("${text}"), but the model never saw it and the run's final state does not hold it` });
    }
  }
  return violations;
}

/**
 * A person's decision, once applied, is part of the run's state for the rest of the run (the
 * checkpoint carries it across links); the audit log has a line for each. Lines and records are
 * matched by call, approver and decision.
 */
function checkStateAgainstAudit(evidence: Evidence): Violation[] {
  const violations: Violation[] = [];
  const byPerson = (via: string) => via === 'signal' || via === 'update';
  for (const run of evidence.runs) {
    if (!run.status) continue;
    const lines = evidence.audit.filter((r) => r.kind === 'decision' && r.run === run.workflowId && byPerson(r.via ?? ''));
    const { list, since } = keptDecisions(evidence, run);
    const kept = list.filter((d) => byPerson(d.via));
    for (const line of lines.filter((l) => l.seq >= since)) {
      if (!kept.some((d) => d.callId === line.callId && d.approver === line.approver && d.decision === line.decision)) {
        violations.push({ invariant: 'state-matches-audit', detail: `${run.workflowId}: ${line.decision} of ${line.callId} by ${line.approver} via ${line.via} is in the audit log (line ${line.seq}) but not in the run's final state: it was lost` });
      }
    }
    for (const d of kept) {
      if (!lines.some((line) => d.callId === line.callId && d.approver === line.approver && d.decision === line.decision)) {
        violations.push({ invariant: 'state-matches-audit', detail: `${run.workflowId}: ${d.decision} of ${d.callId} by ${d.approver} via ${d.via} is in the run's state but has no audit line` });
      }
    }
  }
  return violations;
}

/** Which message a decision line came from, by its approver tag. */
const senderOf = (trace: Trace, line: Pick<AuditRecord, 'approver'>) => trace.messages.find((m) => m.tag === line.approver);

/** Canaries: none ran without a decision or rule, none that must run once ran twice, none was applied twice. */
function checkTools(trace: Trace, evidence: Evidence): Violation[] {
  const violations: Violation[] = [];
  const lines = decisionLines(evidence);
  // A mode switch or an "always" anywhere in the run's tree (the audit lines are the tree's) may let a write run unasked.
  const loosened = (before: number) => evidence.audit.some((r) => Date.parse(r.at) <= before && ((r.kind === 'mode' && r.mode === 'acceptEdits') || (r.kind === 'decision' && r.decision === 'approve_always')));
  for (const marker of evidence.markers) {
    const call = `${marker.tool} ${marker.callId} of ${marker.workflowId} (attempt ${marker.attempt})`;
    if (WRITE_TOOLS.has(marker.tool)) {
      if (marker.permission?.by === 'person') {
        if (!marker.decisionOnDisk) violations.push({ invariant: 'tool-without-decision', detail: `${call} ran as approved by a person, but no decision for it was in the audit log when it started` });
      } else if (!loosened(marker.at)) {
        violations.push({ invariant: 'tool-without-decision', detail: `${call} ran by a rule (${JSON.stringify(marker.permission)}), but no mode switch to acceptEdits and no "always" came before it` });
      }
      const refusal = lines.find((r) => r.run === marker.workflowId && r.callId === marker.callId && REFUSALS.has(r.decision ?? ''));
      if (refusal) violations.push({ invariant: 'tool-without-decision', detail: `${call} ran although the audit log refused it (${refusal.decision} via ${refusal.via}, line ${refusal.seq})` });
    }
    // The arguments that ran are the edited ones exactly when an applied edit decided the call.
    const deciding = lines.filter((r) => r.run === marker.workflowId && r.callId === marker.callId && PERSON_ALLOWS.has(r.decision ?? '')).at(-1);
    const sender = deciding ? senderOf(trace, deciding) : undefined;
    const edit = (sender?.payload as { arguments?: { note?: string } } | undefined)?.arguments?.note ?? (sender?.payload as { decisions?: { callId: string; arguments?: { note?: string } }[] } | undefined)?.decisions?.find((d) => d.callId === marker.callId)?.arguments?.note;
    if (deciding && edit !== marker.input.note) {
      violations.push({ invariant: 'answer-matches-log', detail: `${call} ran with note ${JSON.stringify(marker.input.note)}, but the decision that let it run (${deciding.approver}) carried ${JSON.stringify(edit)}` });
    }
  }
  const ran = new Map<string, number>();
  for (const marker of evidence.markers.filter((m) => ONCE_TOOLS.has(m.tool))) ran.set(`${marker.workflowId} ${marker.callId}`, (ran.get(`${marker.workflowId} ${marker.callId}`) ?? 0) + 1);
  for (const [call, times] of ran) if (times > 1) violations.push({ invariant: 'tool-ran-twice', detail: `${call} (${'canary_write'}) ran ${times} times` });
  const people = lines.filter((r) => r.via === 'signal' || r.via === 'update');
  const byCall = new Map<string, AuditRecord[]>();
  for (const line of people) byCall.set(`${line.run} ${line.callId}`, [...(byCall.get(`${line.run} ${line.callId}`) ?? []), line]);
  for (const [call, decided] of byCall) {
    if (decided.length < 2) continue;
    const list = decided.map((d) => `${d.decision} by ${d.approver} via ${d.via} (line ${d.seq})`).join('; ');
    const one = new Set(decided.map((d) => d.approver)).size === 1;
    violations.push({ invariant: 'decided-twice', detail: `${call} has ${decided.length} person decisions in the audit log${one ? ', all from one message' : ''}: ${list}` });
  }
  return violations;
}

/** Runs end, do not fail, and replay. */
function checkRuns(trace: Trace, evidence: Evidence): Violation[] {
  const violations: Violation[] = [];
  if (trace.stuck) {
    const waits = trace.stack ? ` Where it waits: ${trace.stack.split('\n').filter((l) => /agent-run|message-handlers|approval-handlers|run-driver|take-step/.test(l)).slice(0, 6).map((l) => l.trim()).join(' < ')}` : '';
    violations.push({ invariant: 'stuck', detail: `${trace.workflowId} ${trace.stuck}.${waits}` });
  }
  for (const run of evidence.runs) {
    if (run.failure) violations.push({ invariant: 'run-failed', detail: `${run.workflowId} failed: ${run.failure}` });
    for (const failure of run.taskFailures) violations.push({ invariant: 'run-failed', detail: `${run.workflowId}: workflow task failed: ${failure}` });
  }
  for (const error of evidence.replayErrors) violations.push({ invariant: 'replay', detail: `${error.workflowId} run ${error.runId}: ${error.error}` });
  return violations;
}
