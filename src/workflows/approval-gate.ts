import { setHandler } from '@temporalio/workflow';
import { ApprovalDecisionSchema, UserReplySchema, type ApprovalDecision, type DecisionOutcome } from '../approvals/approval-decision';
import { withChoice } from '../approvals/preference-messages';
import { approvalSignal, decideApprovalUpdate, submitReplyUpdate, userReplySignal } from './definitions';
import { emit } from './lifecycle-emitter';
import { pushBounded, StateLimits, type DecisionRecord, type RunState } from './run-state';

function ignore(state: RunState, kind: 'approval' | 'userReply', reason: string, payload: unknown): DecisionOutcome {
  let text: string;
  try {
    text = JSON.stringify(payload) ?? String(payload);
  } catch {
    text = String(payload);
  }
  pushBounded(state.ignored, { at: new Date().toISOString(), kind, reason, payload: text.slice(0, 500) }, StateLimits.ignored);
  return { applied: false, message: reason };
}

/** Why a decision for `callId` cannot be applied now, or undefined when it can. */
function refusal(state: RunState, callId: string): string | undefined {
  if (state.pendingApprovals.some((p) => p.callId === callId)) return undefined;
  if (state.decisions.some((d) => d.callId === callId)) return `call ${callId} was already decided; decision ignored`;
  return `no pending approval with callId ${callId}; decision ignored`;
}

/**
 * Applies one decision to the current turn. Approve and "always" let the call run, reject and
 * "never" turn it into a denial the model can handle. An "always"/"never" also settles the other
 * calls of the same tool waiting in this turn, and is queued to be saved to the person's store.
 */
function applyDecision(state: RunState, decision: ApprovalDecision, via: DecisionRecord['via']): DecisionOutcome {
  const pending = state.pendingApprovals.find((p) => p.callId === decision.callId);
  const turn = state.turn;
  if (!pending || !turn) return { applied: false, message: `call ${decision.callId} is not pending` };
  const approves = decision.decision === 'approve' || decision.decision === 'approve_always';
  const sweeping = decision.decision === 'approve_always' || decision.decision === 'reject_always';
  const settled = state.pendingApprovals.filter((p) => p.callId === decision.callId || (sweeping && p.tool === pending.tool));
  for (const call of settled) {
    turn.verdicts[call.callId] = approves
      ? { kind: 'run' }
      : { kind: 'reject', reason: decision.reason ? `rejected: ${decision.reason}` : 'rejected by a person' };
    const record: DecisionRecord = {
      callId: call.callId,
      tool: call.tool,
      decision: decision.decision,
      reason: decision.reason,
      approver: decision.approver,
      decidedAt: new Date().toISOString(),
      via,
    };
    pushBounded(state.decisions, record, StateLimits.decisions);
    emit(state, 'approvalDecided', { ...record }, call.callId);
  }
  state.pendingApprovals = state.pendingApprovals.filter((p) => !settled.includes(p));
  if (sweeping) {
    const preference = approves ? 'always' : 'never';
    state.preferences = withChoice(state.preferences, pending.tool, preference);
    const change = { tool: pending.tool, preference, by: decision.approver, at: new Date().toISOString(), fromWorkflowId: state.workflowId } as const;
    state.unsavedPreferences.push(change);
    state.choicesThisRun = [...(state.choicesThisRun ?? []).filter((c) => c.tool !== pending.tool), change];
  }
  const count = settled.length > 1 ? ` (and ${settled.length - 1} other pending ${pending.tool} call(s))` : '';
  return { applied: true, message: `${decision.decision} applied to ${decision.callId}${count}` };
}

function applyReply(state: RunState, text: string): DecisionOutcome {
  const question = state.pendingQuestion;
  if (!question || !state.turn) return { applied: false, message: 'no question is waiting for a reply' };
  state.turn.results[question.callId] = { type: 'tool_result', tool_use_id: question.callId, content: `The user replied: ${text}` };
  state.pendingQuestion = undefined;
  return { applied: true, message: 'reply delivered to the agent' };
}

/**
 * Installs the approval and reply handlers. Signals never throw (a throwing signal handler would fail
 * the workflow task); anything they cannot apply is recorded in `state.ignored`. The updates run the
 * same checks in validators, so a bad call is refused before it is written to history.
 */
export function installApprovalHandlers(state: RunState): void {
  setHandler(approvalSignal, (raw: unknown) => {
    const parsed = ApprovalDecisionSchema.safeParse(raw);
    if (!parsed.success) {
      ignore(state, 'approval', `malformed approval payload: ${parsed.error.issues.map((i) => i.message).join('; ')}`, raw);
      return;
    }
    const why = refusal(state, parsed.data.callId);
    if (why) ignore(state, 'approval', why, raw);
    else applyDecision(state, parsed.data, 'signal');
  });

  setHandler(decideApprovalUpdate, (decision) => applyDecision(state, decision, 'update'), {
    validator: (raw: unknown) => {
      const parsed = ApprovalDecisionSchema.safeParse(raw);
      if (!parsed.success) {
        throw new Error(`Malformed approval: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      }
      const why = refusal(state, parsed.data.callId);
      if (why) throw new Error(why);
    },
  });

  setHandler(userReplySignal, (raw: unknown) => {
    const parsed = UserReplySchema.safeParse(raw);
    if (!parsed.success) {
      ignore(state, 'userReply', 'malformed reply payload: expected { "text": "..." }', raw);
      return;
    }
    if (!state.pendingQuestion) ignore(state, 'userReply', 'no question is waiting for a reply', raw);
    else applyReply(state, parsed.data.text);
  });

  setHandler(submitReplyUpdate, (reply) => applyReply(state, reply.text), {
    validator: (raw: unknown) => {
      if (!UserReplySchema.safeParse(raw).success) throw new Error('Malformed reply: expected { "text": "..." }');
      if (!state.pendingQuestion) throw new Error('No question is waiting for a reply');
    },
  });
}
