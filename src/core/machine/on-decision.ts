import type { ApprovalDecision } from '../../contract/approval-decision';
import { withRule, type PreferenceRule } from '../approvals/preference-rules';
import { policyFor, recordDecision } from './decisions';
import type { DecisionVia } from '../../contract/decision';
import { decisionRefusal, pendingCalls, rememberedMatches } from './decision-rules';
import { errorResult, recordCall, rejectCall, toBlock } from './call-records';
import { pushBounded, StateLimits, type RunState, type TurnCall } from './run-state';
import type { ToolPermission } from '../../contract/tool-permission';
import { PERSON_APPROVED, ruleAllowed } from '../../contract/tool-permission';
import { signingEnvOf, type TransitionContext } from './transition-context';
import { closeThread } from './on-thread';
import { applyEdit } from './on-edit';
import { budgetTimedOut } from './on-budget';
import type { ShellAnalysis } from '../../contract/shell-analysis';
import { withAcceptedSignature } from '../approvals/signatures/accepted-signatures';

export function recordIgnored(state: RunState, kind: string, reason: string, payload: string, ctx: TransitionContext): void {
  pushBounded(state.ignored, { at: ctx.at, kind, reason, payload: payload.slice(0, 500) }, StateLimits.ignored);
}

/** `permission`: the call a person decided on runs as theirs; others an "always" settles run as that choice allows. */
function settleCall(state: RunState, call: TurnCall, decision: ApprovalDecision, via: DecisionVia, verified: boolean, ctx: TransitionContext, permission: ToolPermission = PERSON_APPROVED): void {
  const approves = decision.decision === 'approve' || decision.decision === 'approve_always';
  if (approves) call.stage = { kind: 'run', permission: { ...permission }, started: false };
  else rejectCall(state, call.id, decision.reason ? `rejected: ${decision.reason}` : 'rejected by a person');
  recordDecision(state, call, { decision: decision.decision, reason: decision.reason, approver: decision.approver, verified, via }, ctx);
}

/**
 * Applies one person's decision. Approve and "always" let the call run; reject and "never" give it a
 * refusal the model can handle. An "always"/"never" is remembered for what the person saw (see
 * rememberedMatches), queued to be saved to their store, and settles the other waiting calls of this
 * turn that it now covers.
 */
export function onDecision(
  state: RunState,
  decision: ApprovalDecision,
  via: DecisionVia,
  verified: boolean,
  ctx: TransitionContext,
  /** Replaying a history from before choices were scoped: "always"/"never" were tool-wide then. */
  toolWide = false,
  /** An execution from before the approval-channel-v2 patch: the checks it was decided under. */
  legacy = false,
  /** For an approval with edited arguments: the worker's analysis of the edited call (shell commands). */
  analysis?: ShellAnalysis,
): void {
  const refusal = decisionRefusal(state, decision, { ...signingEnvOf(ctx), legacy });
  if (refusal) {
    recordIgnored(state, 'approval', refusal, JSON.stringify(decision), ctx);
    return;
  }
  const call = pendingCalls(state).find((c) => c.id === decision.callId)!;
  if (decision.arguments !== undefined && applyEdit(state, call, decision, analysis, verified, ctx) !== 'run') return;
  settleCall(state, call, decision, via, verified, ctx);
  if (decision.decision !== 'approve_always' && decision.decision !== 'reject_always') return;

  const preference = decision.decision === 'approve_always' ? 'always' : 'never';
  // An "always" for a call that writes lets the calls it covers later write too; one for a call that only reads does not.
  const writes = preference === 'always' ? callWrites(state, call) : undefined;
  // Likewise the network: the approved call runs with the run's network, so the "always" remembers whether it had it.
  const network = preference === 'always' ? runHasNetwork(state) : undefined;
  const matches = toolWide ? [{ kind: 'tool' as const }] : rememberedMatches(state, call, decision);
  if (!matches) {
    const warning = `"${preference}" for ${call.id} applied to this call only: its command could not be pinned down to remember`;
    pushBounded(state.warnings, warning, StateLimits.warnings);
    return;
  }
  for (const match of matches) {
    const rule: PreferenceRule = { tool: call.name, preference, match, by: decision.approver, at: ctx.at, fromWorkflowId: state.workflowId, ...(writes === undefined ? {} : { writes }), ...(network === undefined ? {} : { network }) };
    state.preferences = withRule(state.preferences, rule);
    state.choicesThisRun = withRule(state.choicesThisRun, rule).slice(-StateLimits.choicesThisRun);
    state.unsavedPreferences.push(rule);
  }
  // The other waiting calls the new choice now decides are settled with it, under the same name.
  for (const other of pendingCalls(state)) {
    if (toolWide) {
      if (other.name === call.name) settleCall(state, other, { ...decision, callId: other.id }, via, verified, ctx, ruleAllowed(writes === true, network === true));
      continue;
    }
    const verdict = policyFor(state, other, state.mode, ctx.containedCalls !== false);
    const follows = (verdict.action === 'allow' && preference === 'always') || (verdict.action === 'reject' && preference === 'never');
    if (follows) settleCall(state, other, { ...decision, callId: other.id }, via, verified, ctx, verdict.action === 'allow' ? ruleAllowed(verdict.writes, verdict.network) : ruleAllowed(false));
  }
}

/** A call writes when its tool is a write tool or the shell analysis found a write (a redirection). */
function callWrites(state: RunState, call: TurnCall): boolean {
  return state.agent.tools[call.name]?.scope === 'write' || (call.analysis?.writes.length ?? 0) > 0;
}

/** Whether the run lets its commands use the network: what a call a person approved runs with (run-steps.ts). */
function runHasNetwork(state: RunState): boolean {
  return state.input.network ?? state.agent.network;
}

/** The user's answer to the waiting question becomes that tool call's result. */
export function onReply(state: RunState, text: string, ctx: TransitionContext): void {
  const question = state.pendingQuestion;
  const call = state.turn?.calls.find((c) => c.id === question?.callId);
  if (!question || !call) {
    recordIgnored(state, 'userReply', 'no question is waiting for a reply', JSON.stringify({ text }), ctx);
    return;
  }
  call.result = { type: 'tool_result', tool_use_id: call.id, content: `The user replied: ${text}` };
  state.pendingQuestion = undefined;
  recordCall(state, { iteration: state.turn!.iteration, callId: call.id, tool: call.name, input: call.input, outcome: 'success' });
}

/** Remembers the signatures of payloads just applied until they expire, so none is accepted twice (replayOf). */
export function onSignaturesAccepted(state: RunState, signed: { signature: string; expiresAt: string }[], ctx: TransitionContext): void {
  for (const one of signed) state.acceptedSignatures = withAcceptedSignature(state.acceptedSignatures, one, ctx.at, ctx.now, StateLimits.acceptedSignatures);
}

/** Deadlines: approvals and a question that waited longer than the run allows are treated as refused. */
export function onTimePassed(state: RunState, ctx: TransitionContext): void {
  budgetTimedOut(state, ctx);
  const idle = state.thread.idleSince;
  if (idle && Date.parse(idle) + state.input.idleTimeoutSeconds * 1000 <= ctx.now) closeThread(state, ctx);
  const timeoutMs = state.input.approvalTimeoutSeconds * 1000;
  for (const call of pendingCalls(state)) {
    if (call.stage.kind !== 'person' || Date.parse(call.stage.requestedAt) + timeoutMs > ctx.now) continue;
    rejectCall(state, call.id, `timed out: no decision within ${state.input.approvalTimeoutSeconds}s`);
    recordDecision(state, call, { decision: 'timed_out', reason: 'timed out', via: 'timeout' }, ctx);
  }
  const question = state.pendingQuestion;
  if (question && Date.parse(question.askedAt) + timeoutMs <= ctx.now) {
    const call = state.turn?.calls.find((c) => c.id === question.callId);
    state.pendingQuestion = undefined;
    if (call) {
      call.result = toBlock(
        call.id,
        errorResult(`The user did not answer within ${state.input.approvalTimeoutSeconds}s. Continue without the answer, or end with complete_task (blocked).`),
      );
    }
  }
}
