import { decisionScopeText, type ApprovalDecision } from '../../approvals/approval-decision';
import { canonicalJson } from '../../approvals/canonical-json';
import { argumentOf, type PreferenceMatch } from '../../approvals/preference-rules';
import { checkDecisionSignature } from '../../approvals/signatures/decision-signature';
import { COMMAND_ARGUMENT } from './classify';
import type { RunState, TurnCall } from './run-state';

/** The calls of the current turn that wait for a person: the one source of "pending approvals". */
export function pendingCalls(state: RunState): TurnCall[] {
  return state.turn?.calls.filter((c) => c.verdict.kind === 'pending' && !c.result) ?? [];
}

/** The approvers of this run: the run's list narrowed by the agent's (a run can only narrow it). */
export function effectiveApprovers(state: RunState): string[] | undefined {
  const agent = state.agent.approvers;
  const run = state.input.approvers;
  if (agent && run) return run.filter((name) => agent.includes(name));
  return run ?? agent;
}

/**
 * Why `decision` cannot be applied now, or undefined when it can: the call must be waiting, the
 * approver must be one this run accepts, and with an approver registry the signature must verify.
 * Pure, so the update validator and the signal path refuse exactly the same things.
 */
export function decisionRefusal(state: RunState, decision: ApprovalDecision): string | undefined {
  const call = pendingCalls(state).find((c) => c.id === decision.callId);
  if (!call) {
    if (state.decisions.some((d) => d.callId === decision.callId)) return `call ${decision.callId} was already decided; decision ignored`;
    return `no pending approval with callId ${decision.callId}; decision ignored`;
  }
  const approvers = effectiveApprovers(state);
  if (approvers && (!decision.approver || !approvers.includes(decision.approver))) {
    const who = decision.approver ? `"${decision.approver}"` : 'a decision without an approver';
    return `${who} may not decide calls of this run (approvers: ${approvers.join(', ') || 'none'}); the call stays parked`;
  }
  const scopeProblem = scopeRefusal(state, call, decision);
  if (scopeProblem) return scopeProblem;
  const check = checkDecisionSignature({ registry: state.approverKeys, workflowId: state.workflowId, decision: { ...decision, scope: decisionScopeText(decision) } });
  if (!check.ok) return `${check.reason}; the call stays parked`;
  return undefined;
}

function scopeRefusal(state: RunState, call: TurnCall, decision: ApprovalDecision): string | undefined {
  const sweeping = decision.decision === 'approve_always' || decision.decision === 'reject_always';
  if (!sweeping && (decision.scope !== undefined || decision.prefix !== undefined)) {
    return '"scope" and "prefix" only apply to approve_always and reject_always';
  }
  if (decision.scope === 'tool' && decision.prefix !== undefined) return 'give either "scope": "tool" or a "prefix", not both';
  if (decision.prefix !== undefined && !state.agent.tools[call.name]?.subjectArgument) {
    return `"prefix" does not apply to ${call.name}: it has no command or path to prefix; use "scope": "tool" for every call of it`;
  }
  return undefined;
}

/**
 * What a remembered "always"/"never" covers, from the decided call: tool-wide only when asked for;
 * a prefix the person chose; otherwise exactly what they saw (each simple command's words for a shell
 * call, the path for file tools, the whole arguments for other tools). Undefined when the call cannot
 * be pinned down (a shell command the parser did not understand): then nothing is remembered.
 */
export function rememberedMatches(state: RunState, call: TurnCall, decision: ApprovalDecision): PreferenceMatch[] | undefined {
  if (decision.scope === 'tool') return [{ kind: 'tool' }];
  const subject = state.agent.tools[call.name]?.subjectArgument;
  if (subject === COMMAND_ARGUMENT) {
    if (decision.prefix !== undefined) {
      const words = decision.prefix.split(/\s+/).filter(Boolean);
      return [{ kind: 'command', pattern: { pattern: `${words.join(' ')} *`, words: [...words, '*'] }, prefix: true }];
    }
    const analysis = call.analysis;
    if (!analysis?.understood || analysis.commands.length === 0) return undefined;
    if (analysis.commands.some((c) => c.words.some((w) => !w.literal || w.glob))) return undefined;
    return analysis.commands.map((c) => {
      const words = c.words.map((w) => w.text);
      return { kind: 'command', pattern: { pattern: words.join(' '), words }, prefix: false };
    });
  }
  if (subject !== undefined) {
    const value = decision.prefix ?? argumentOf(call.input, subject);
    return value === undefined ? undefined : [{ kind: 'argument', name: subject, value, prefix: decision.prefix !== undefined }];
  }
  return [{ kind: 'arguments', json: canonicalJson(call.input) }];
}
