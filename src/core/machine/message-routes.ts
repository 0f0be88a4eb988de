import type { ApprovalDecision, UserReply } from '../../contract/approval-decision';
import { decisionRefusal, forwardRefusal, type SigningEnv } from './decision-rules';
import type { RunState } from './run-state';
import { senderRefusal } from './sender-rules';

/** Where a person's message goes: applied by this run, forwarded to a sub-agent's run, or refused with the reason. */
export type Route = { apply: true } | { forwardTo: string } | { refusal: string };

/**
 * Where a decision goes: applied here, forwarded to the sub-agent's run that waits for the call (a
 * decision sent to any ancestor reaches it; that run applies it once, refusing a repeat), or refused.
 * A decision that names its run (`workflowId`, issue 32) goes to that run only: two sub-agents may
 * park the same call id. Without one, this run's own call wins, then the first run below waiting for it.
 * Pure: the update validator, the signal path and the loop (right before it applies) ask the same.
 */
export function routeDecision(state: RunState, decision: ApprovalDecision, env: SigningEnv): Route {
  const target = env.channelII ? decision.workflowId : undefined;
  if (target !== undefined && target !== state.workflowId) {
    const entry = waitingBelow(state).find((a) => a.workflowId === target && a.callId === decision.callId);
    if (!entry) return { refusal: `no call ${decision.callId} of ${target} waits for a decision in this run's tree; decision ignored` };
    const forbidden = forwardRefusal(entry, decision, { state, env });
    return forbidden ? { refusal: forbidden } : { forwardTo: entry.workflowId };
  }
  const refusal = decisionRefusal(state, decision, env);
  if (!refusal) return { apply: true };
  if (target !== undefined) return { refusal };
  const entry = waitingBelow(state).find((a) => a.callId === decision.callId);
  if (!entry) return { refusal };
  const forbidden = forwardRefusal(entry, decision, { state, env });
  return forbidden ? { refusal: forbidden } : { forwardTo: entry.workflowId };
}

/** The calls the runs below this one wait for, as they reported them (see child-reports.ts). */
export function waitingBelow(state: RunState): RunState['childWaiting'][string]['approvals'] {
  return Object.values(state.childWaiting).flatMap((w) => w.approvals);
}

/** Which run waits for a reply: this one, the sub-agent run whose question has `callId`, or the only one asking. */
export function routeReply(state: RunState, reply: UserReply, env: SigningEnv): Route {
  const callId = reply.callId;
  const own = state.pendingQuestion;
  if (own && (!callId || own.callId === callId)) {
    // The run that asked checks who answers; a forwarded reply is checked by the sub-agent's run.
    const refusal = senderRefusal(state, 'reply', reply, env);
    return refusal ? { refusal } : { apply: true };
  }
  const questions = Object.values(state.childWaiting).flatMap((w) => w.questions);
  const target = callId ? questions.find((q) => q.callId === callId) : questions.length === 1 ? questions[0] : undefined;
  if (target) return { forwardTo: target.workflowId };
  if (questions.length > 1 && !callId) return { refusal: `Several questions are waiting (${questions.map((q) => q.callId).join(', ')}); name one with callId` };
  return { refusal: 'No question is waiting for a reply' };
}

/** What became of an edited call once its decision was applied: it runs, the rules refused it, or it waits for a decision on the edit. */
export function editOutcome(state: RunState, callId: string): string {
  const call = state.turn?.calls.find((c) => c.id === callId);
  if (call?.stage.kind === 'person') return `edit of ${callId} applied; the edited call waits for a decision: ${call.stage.reason}`;
  if (call?.stage.kind === 'refused') return `edit of ${callId} applied, and the run's rules refused the edited call: ${call.stage.reason}`;
  return `approve applied to ${callId} with the edited arguments`;
}
