import type { WorkflowHandle } from '@temporalio/client';
import { canonicalJson } from '../../core/approvals/canonical-json';
import { decideApprovalUpdate, submitReplyUpdate } from '../../contract/agent-run-api';
import type { ApprovalDecision, UserReply } from '../../contract/approval-decision';
import type { PendingApproval, PendingQuestionView } from '../../contract/run-status';
import type { RecordedRun } from './recorded-run';
import type { ShadowSession } from './shadow-session';

/** A decision as the report lists it: which call, what was decided, and (for the shadow) where the answer came from. */
export interface ApprovalView {
  /** The call decided, and its tool. */
  callId: string;
  tool: string;
  /** approve, reject, approve_always, reject_always, timed_out, handler_allow... (the audit's words). */
  decision: string;
  /** Who decided, and why, as they said. */
  approver?: string;
  reason?: string;
  /** The shadow's: replayed from the recorded decision, or taken from `--decide`. */
  source?: 'recorded' | 'flag';
}

const DECISION_MESSAGES = new Set(['approval', 'decideApproval']);

/** The decisions people sent the recorded run (signal, update or batch), as sent, by call id; signatures dropped. */
export function recordedDecisionPayloads(recorded: RecordedRun): Map<string, ApprovalDecision> {
  const found = new Map<string, ApprovalDecision>();
  const add = (payload: ApprovalDecision) => {
    const { signature: _s, expiresAt: _e, ...decision } = payload;
    found.set(decision.callId, decision);
  };
  for (const { name, payload } of recorded.messages) {
    if (DECISION_MESSAGES.has(name)) add(payload as ApprovalDecision);
    else if (name === 'decideApprovals') for (const decision of (payload as { decisions: ApprovalDecision[] }).decisions) add(decision);
  }
  return found;
}

/** The decisions the recorded run recorded on calls that parked (a person's, a timeout's, an approval handler's). */
export function recordedApprovals(recorded: RecordedRun): ApprovalView[] {
  return recorded.events.flatMap((event) => {
    if (event.name !== 'approvalDecided' || event.data.via === 'policy' || event.data.via === 'guardrail') return [];
    const { callId, tool, decision, approver, reason } = event.data;
    return [{ callId, tool, decision, ...(approver ? { approver } : {}), ...(reason ? { reason } : {}) }];
  });
}

/** The call the recorded run asked a person about, with its tool and input, if it did. */
function recordedRequest(recorded: RecordedRun, callId: string) {
  for (const event of recorded.events) if (event.name === 'approvalRequested' && event.data.callId === callId) return { ...event.data, iteration: event.iteration };
  return undefined;
}

/** How the recorded run decided a call: a decision it announced, else who let the call run (its policy, most often). */
function recordedVerdict(recorded: RecordedRun, callId: string): { decision: string; via: string } | undefined {
  for (const event of recorded.events) if (event.name === 'approvalDecided' && event.data.callId === callId) return { decision: event.data.decision, via: event.data.via };
  const approval = recorded.toolCalls.get(callId)?.approval;
  return approval ? { decision: approval.decision, via: approval.via ?? 'policy' } : undefined;
}

/** Whether the recorded run is parked on this very call: the shadow reached the end of the record. */
export function parkedOnIt(recorded: RecordedRun, callId: string): boolean {
  if (recorded.ending !== 'parked' || !recordedRequest(recorded, callId)) return false;
  return !recorded.events.some((event) => event.name === 'approvalDecided' && event.data.callId === callId);
}

/**
 * Decides a call the shadow parked on: with the decision people sent the recorded run for the same
 * call (same id, tool and arguments), else as `--decide` says. A call the recorded run did not ask a
 * person about is a divergence of kind `decision`, whatever the flag; `stop` stops the shadow there.
 * Returns the view for the report, or undefined when the shadow was stopped instead.
 */
export async function decideShadowCall(handle: WorkflowHandle, session: ShadowSession, pending: PendingApproval, decisions: Map<string, ApprovalDecision>): Promise<ApprovalView | undefined> {
  const { recorded } = session;
  const asked = recordedRequest(recorded, pending.callId);
  const sameCall = asked !== undefined && asked.tool === pending.tool && canonicalJson(asked.input) === canonicalJson(pending.input);
  const decision = sameCall ? decisions.get(pending.callId) : undefined;
  if (decision) {
    await handle.executeUpdate(decideApprovalUpdate, { args: [decision] });
    return { callId: pending.callId, tool: pending.tool, decision: decision.decision, ...(decision.approver ? { approver: decision.approver } : {}), source: 'recorded' };
  }
  if (!(sameCall && parkedOnIt(recorded, pending.callId))) {
    const verdict = recordedVerdict(recorded, pending.callId);
    const what = verdict ? `the shadow asks a person about call ${pending.callId} (${pending.tool}), which the recorded run decided by ${verdict.via === 'timeout' ? 'timing out' : `its ${verdict.via}`} (${verdict.decision})` : `the shadow asks a person about call ${pending.callId} (${pending.tool}), which the recorded run did not`;
    session.diverge({ iteration: pending.iteration, kind: 'decision', what, recorded: verdict ? { decision: verdict.decision, via: verdict.via } : null, shadow: { callId: pending.callId, tool: pending.tool, arguments: pending.input, reason: pending.reason } });
  }
  const flag = session.options.decide;
  if (sameCall && parkedOnIt(recorded, pending.callId)) session.atRecordEnd = true;
  if (flag === 'stop') {
    session.stop(sameCall ? `the shadow reached call ${pending.callId} (${pending.tool}), on which the recorded run waits for a person (--decide stop)` : `the shadow parked on call ${pending.callId} (${pending.tool}) with no recorded decision (--decide stop)`);
    return undefined;
  }
  const payload: ApprovalDecision = { callId: pending.callId, decision: flag, approver: 'replay-lab', reason: `replay lab: no recorded decision for this call; --decide ${flag}` };
  await handle.executeUpdate(decideApprovalUpdate, { args: [payload] });
  return { callId: pending.callId, tool: pending.tool, decision: flag, approver: 'replay-lab', source: 'flag' };
}

/** The replies people sent the recorded run, in order. */
function recordedReplies(recorded: RecordedRun): UserReply[] {
  return recorded.messages.filter((m) => m.name === 'userReply' || m.name === 'submitReply').map((m) => {
    const { signature: _s, expiresAt: _e, ...reply } = m.payload as UserReply;
    return reply;
  });
}

/**
 * Answers a question the shadow asks (need_more_information) with the reply the recorded run got
 * for it (by call id, else the `answered`-th reply); with none, it stops (`--decide stop`) or replies
 * that there is no recorded answer.
 */
export async function answerShadowQuestion(handle: WorkflowHandle, session: ShadowSession, question: PendingQuestionView, answered: number): Promise<boolean> {
  const replies = recordedReplies(session.recorded);
  const reply = replies.find((r) => r.callId === question.callId) ?? replies.filter((r) => !r.callId)[answered];
  if (reply) {
    await handle.executeUpdate(submitReplyUpdate, { args: [{ ...reply, callId: question.callId }] });
    return true;
  }
  if (session.recorded.ending === 'parked') session.atRecordEnd = true;
  else {
    session.diverge({ iteration: session.iteration, kind: 'decision', what: `the shadow asks a question the recorded run did not get an answer to: ${question.question}`, recorded: null, shadow: { callId: question.callId, question: question.question } });
  }
  if (session.options.decide === 'stop') {
    session.stop(`the shadow asks a question with no recorded answer (--decide stop): ${question.question}`);
    return false;
  }
  await handle.executeUpdate(submitReplyUpdate, { args: [{ text: '(replay lab: the recorded run has no answer to this question)', callId: question.callId, sender: 'replay-lab' }] });
  return true;
}
