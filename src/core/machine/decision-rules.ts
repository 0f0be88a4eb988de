import type { ApprovalDecision } from '../../contract/approval-decision';
import { canonicalJson } from '../approvals/canonical-json';
import { argumentOf, type PreferenceMatch } from '../approvals/preference-rules';
import { replayRefusal } from '../approvals/signatures/accepted-signatures';
import { checkSignature } from '../approvals/signatures/decision-signature';
import { v1SignatureVerifies } from '../approvals/signatures/legacy-v1';
import { argumentsHash, decisionMessage, legacyDecisionText, type RunIdentity } from '../approvals/signatures/signed-message';
import { COMMAND_ARGUMENT } from './decisions';
import { StateLimits, type RunState, type TurnCall } from './run-state';

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
  /**
   * Issue 32's checks (patch approvalChannelII): a decision's `argumentsHash` must match the call's
   * arguments now, a signed one must carry it, and its `workflowId` picks the run of a tree.
   */
  channelII?: boolean;
  /** Issue 32's replays (patch signedOnce): a signature this run accepted is refused until it expires. */
  signedOnce?: boolean;
  /** Issue 34 (patch accountableRaises): a signed budget raise is accepted once too. */
  raisesOnce?: boolean;
}

/**
 * Why a signed payload was seen before (issue 32, must-have 6): this run accepted its signature and it
 * has not expired, or the run holds as many live signatures as it keeps. Undefined when it was not, or
 * when signatures are not checked (no registry, no signature, an execution from before the patch).
 */
export function replayOf(state: RunState, payload: { signature?: string }, env: SigningEnv): string | undefined {
  if (!env.signedOnce || state.approverKeys === undefined || !payload.signature) return undefined;
  return replayRefusal(state.acceptedSignatures, payload.signature, env.now, StateLimits.acceptedSignatures);
}

/** The run a signature must name, from the workflow's own facts, never from the payload. */
export function runIdentity(state: RunState, env: SigningEnv): RunIdentity {
  return { namespace: env.namespace, workflowId: state.workflowId, runId: env.firstRunId };
}

/**
 * Why a decision on a call a sub-agent's run waits for may not be forwarded there: its approver is not
 * one that run accepts (its list, as the run reported it in `childWaiting`). Undefined when it may.
 */
export function forwardRefusal(
  waiting: { workflowId: string; callId?: string; input?: unknown; approvers?: string[] },
  decision: ApprovalDecision,
  shown?: { state: RunState; env: SigningEnv },
): string | undefined {
  if (waiting.approvers && !(decision.approver && waiting.approvers.includes(decision.approver))) {
    const who = decision.approver ? `"${decision.approver}"` : 'a decision without an approver';
    return `${who} may not decide calls of ${waiting.workflowId} (approvers: ${waiting.approvers.join(', ')}); the call stays parked`;
  }
  if (!shown?.env.channelII) return undefined;
  // The run below checks all this against its own call too; this says it early, so an update is not
  // told "forwarded" for a decision the run below would only record as ignored.
  const { state, env } = shown;
  const hashProblem = shownArgumentsRefusal({ id: decision.callId, input: waiting.input }, decision);
  if (hashProblem) return hashProblem;
  if (state.approverKeys === undefined) return undefined;
  if (!decision.signature || !decision.approver || !Object.hasOwn(state.approverKeys, decision.approver)) {
    return `${decision.signature ? `unknown approver ${decision.approver ?? '(none)'}` : 'unsigned decision'}: ${waiting.workflowId} takes signed decisions of registered approvers only; the call stays parked`;
  }
  const expires = decision.expiresAt === undefined ? Number.NaN : Date.parse(decision.expiresAt);
  if (!(expires > env.now)) return `the decision's signature has no expiry ahead (expiresAt ${decision.expiresAt ?? 'absent'}); decide again; the call stays parked`;
  return missingHashRefusal(state, decision.callId, decision);
}

/**
 * Why a decision does not cover the call as it waits now: the person saw other arguments (an edit
 * parked it again under the same id since). Undefined when it names no hash or the hash matches.
 */
export function shownArgumentsRefusal(call: { id: string; input: unknown }, decision: ApprovalDecision): string | undefined {
  if (decision.argumentsHash === undefined) return undefined;
  const now = argumentsHash(call.input);
  if (decision.argumentsHash === now) return undefined;
  return `the arguments of ${call.id} changed since they were shown (argumentsHash ${decision.argumentsHash.slice(0, 12)}…, the call now ${now.slice(0, 12)}…): look at the call again and decide what it asks now; the call stays parked`;
}

/** With an approver registry, a decision must say which arguments the person saw; undefined when it does or none is needed. */
export function missingHashRefusal(state: RunState, callId: string, decision: ApprovalDecision): string | undefined {
  if (state.approverKeys === undefined || decision.argumentsHash !== undefined) return undefined;
  return `signed decision on ${callId} carries no argumentsHash: with an approver registry a decision must say which arguments the person saw (sha-256 of their canonical JSON); decide again with \`agentctl\` or the console of this release; the call stays parked`;
}

/**
 * Why `decision` cannot be applied now, or undefined when it can: the call must be waiting, the
 * approver must be one this run accepts, a prefix must start the call's command or path, and with an
 * approver registry the signature must verify over the message this run rebuilds from its own state
 * (namespace, ids, the waiting call's arguments) and the payload's decision fields.
 * Pure, so the update validator and the signal path refuse exactly the same things.
 */
export function decisionRefusal(state: RunState, decision: ApprovalDecision, env: SigningEnv): string | undefined {
  // First: a replayed decision is named as one, not as "already decided" or a changed call.
  const replay = replayOf(state, decision, env);
  if (replay) return `${replay}; decision ignored`;
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
  if (env.channelII) {
    const shownProblem = shownArgumentsRefusal(call, decision);
    if (shownProblem) return shownProblem;
  }
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
  // Last, so a bad or unknown signature is named as such: only a good one is asked what it was shown.
  return env.channelII ? missingHashRefusal(state, call.id, decision) : undefined;
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
