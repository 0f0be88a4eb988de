import type { ApprovalDecision } from '../../contract/approval-decision';
import { canonicalJson } from '../approvals/canonical-json';
import { argumentOf, type PreferenceMatch } from '../approvals/preference-rules';
import { checkSignature } from '../approvals/signatures/decision-signature';
import { v1SignatureVerifies } from '../approvals/signatures/legacy-v1';
import { decisionMessage, legacyDecisionText, type RunIdentity } from '../approvals/signatures/signed-message';
import { COMMAND_ARGUMENT } from './decisions';
import type { RunState, TurnCall } from './run-state';

/** The calls of the current turn that wait for a person: the one source of "pending approvals". */
export function pendingCalls(state: RunState): TurnCall[] {
  return state.turn?.calls.filter((c) => c.stage.kind === 'person' && !c.result) ?? [];
}

/** The approvers of this run: the run's list narrowed by the agent's (a run can only narrow it). */
export function effectiveApprovers(state: RunState): string[] | undefined {
  const agent = state.agent.approvers;
  const run = state.input.approvers;
  if (agent && run) return run.filter((name) => agent.includes(name));
  return run ?? agent;
}

/** What a signature check needs besides the state: workflow time and the run's server-side identity. */
export interface SigningEnv {
  now: number;
  namespace: string;
  /** The first execution's run id (the same on every continue-as-new link). */
  firstRunId: string;
  /** An execution from before the `approval-channel-v2` patch: v1 signatures too, no prefix check. */
  legacy?: boolean;
}

/** The run a signature must name, from the workflow's own facts, never from the payload. */
export function runIdentity(state: RunState, env: SigningEnv): RunIdentity {
  return { namespace: env.namespace, workflowId: state.workflowId, runId: env.firstRunId };
}

/**
 * Why a decision on a call a sub-agent's run waits for may not be forwarded there: its approver is not
 * one that run accepts (its list, as the run reported it in `childWaiting`). Undefined when it may.
 */
export function forwardRefusal(waiting: { workflowId: string; approvers?: string[] }, decision: ApprovalDecision): string | undefined {
  if (!waiting.approvers || (decision.approver && waiting.approvers.includes(decision.approver))) return undefined;
  const who = decision.approver ? `"${decision.approver}"` : 'a decision without an approver';
  return `${who} may not decide calls of ${waiting.workflowId} (approvers: ${waiting.approvers.join(', ')}); the call stays parked`;
}

/**
 * Why `decision` cannot be applied now, or undefined when it can: the call must be waiting, the
 * approver must be one this run accepts, a prefix must start the call's command or path, and with an
 * approver registry the signature must verify over the message this run rebuilds from its own state
 * (namespace, ids, the waiting call's arguments) and the payload's decision fields.
 * Pure, so the update validator and the signal path refuse exactly the same things.
 */
export function decisionRefusal(state: RunState, decision: ApprovalDecision, env: SigningEnv): string | undefined {
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
  if (decision.arguments !== undefined && decision.decision !== 'approve' && decision.decision !== 'approve_always') {
    return '"arguments" only go with approve or approve_always (a refused call runs nothing); the call stays parked';
  }
  const scopeProblem = scopeRefusal(state, call, decision, env.legacy === true);
  if (scopeProblem) return scopeProblem;
  // An execution from before the patch replays the v1 decisions it applied, and takes v2 ones from new clients.
  if (env.legacy && decision.arguments === undefined && v1SignatureVerifies({ registry: state.approverKeys, workflowId: state.workflowId, decision })) return undefined;
  const approver = decision.approver;
  const message =
    decision.expiresAt === undefined || approver === undefined
      ? undefined
      : decisionMessage(runIdentity(state, env), call.input, { ...decision, approver, expiresAt: decision.expiresAt });
  const legacyScope = decision.scope === 'tool' ? 'tool' : decision.prefix === undefined ? undefined : `prefix:${decision.prefix}`;
  const legacy = approver === undefined ? undefined : legacyDecisionText({ workflowId: state.workflowId, callId: decision.callId, decision: decision.decision, approver, scope: legacyScope });
  const check = checkSignature({ registry: state.approverKeys, signer: approver, signature: decision.signature, message, now: env.now, legacy });
  if (!check.ok) return `${check.reason}; the call stays parked`;
  return undefined;
}

/**
 * Whether `prefix` starts the call it is decided on: word by word for a shell command (so `npm t`
 * does not cover `npm test`), character by character for a path. A prefix the call does not start
 * with would remember a choice for commands the person never saw.
 */
function prefixStartsCall(prefix: string, value: string, isCommand: boolean): boolean {
  if (!isCommand) return value.startsWith(prefix);
  const want = prefix.split(/\s+/).filter(Boolean);
  const have = value.trim().split(/\s+/);
  return want.length > 0 && want.every((word, i) => have[i] === word);
}

function scopeRefusal(state: RunState, call: TurnCall, decision: ApprovalDecision, legacy: boolean): string | undefined {
  const sweeping = decision.decision === 'approve_always' || decision.decision === 'reject_always';
  if (!sweeping && (decision.scope !== undefined || decision.prefix !== undefined)) {
    return '"scope" and "prefix" only apply to approve_always and reject_always';
  }
  if (decision.scope === 'tool' && decision.prefix !== undefined) return 'give either "scope": "tool" or a "prefix", not both';
  if (decision.prefix !== undefined && !state.agent.tools[call.name]?.subjectArgument) {
    return `"prefix" does not apply to ${call.name}: it has no command or path to prefix; use "scope": "tool" for every call of it`;
  }
  if (decision.prefix !== undefined && !legacy) {
    const subject = state.agent.tools[call.name]!.subjectArgument!;
    const value = argumentOf(call.input, subject);
    if (value === undefined || !prefixStartsCall(decision.prefix, value, subject === COMMAND_ARGUMENT)) {
      return `"prefix" ${JSON.stringify(decision.prefix)} is not a prefix of ${call.id}'s ${subject} ${JSON.stringify(value ?? '')}: choose the start of what this call runs`;
    }
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
    // The files the line wrote are part of the choice (issue 32): "always" for `echo hi >> a.txt` is not for `>> b.txt`.
    const targets = call.analysis?.writes.map((w) => w.target) ?? [];
    const redirects = targets.length > 0 ? { redirects: targets } : {};
    if (decision.prefix !== undefined) {
      const words = decision.prefix.split(/\s+/).filter(Boolean);
      return [{ kind: 'command', pattern: { pattern: `${words.join(' ')} *`, words: [...words, '*'] }, prefix: true, ...redirects }];
    }
    const analysis = call.analysis;
    if (!analysis?.understood || analysis.commands.length === 0) return undefined;
    if (analysis.commands.some((c) => c.words.some((w) => !w.literal || w.glob))) return undefined;
    return analysis.commands.map((c) => {
      const words = c.words.map((w) => w.text);
      return { kind: 'command', pattern: { pattern: words.join(' '), words }, prefix: false, ...redirects };
    });
  }
  if (subject !== undefined) {
    const value = decision.prefix ?? argumentOf(call.input, subject);
    return value === undefined ? undefined : [{ kind: 'argument', name: subject, value, prefix: decision.prefix !== undefined }];
  }
  return [{ kind: 'arguments', json: canonicalJson(call.input) }];
}
