// What an approver signs: one typed, versioned object, encoded as canonical JSON. JSON quotes and
// escapes every string, so no field can spill into another the way newline-joined text allowed (a
// workflow id holding "\n" once let one run's signature read as another run's). The signer fills the
// run's facts from the server and the verifier recomputes them from its own state; only the decision
// fields (decision, approver, scope, prefix, reason, expiry) come from the sender.
// Pure: bundled into workflow code, so no Node built-ins (sha256 is @noble/hashes, pure JS).
import { sha256 } from '@noble/hashes/sha256';
import { canonicalJson } from '../canonical-json';

/** The version of the signed object. A signature over anything else (the v1 newline text) is refused. */
export const SIGNED_MESSAGE_VERSION = 2;

/** A signature is good for this long at most after it is made, so a leaked one does not live forever. */
export const MAX_SIGNATURE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What the client asks for when it is not told: long enough for a `--signal` a worker picks up later. */
export const DEFAULT_SIGNATURE_LIFETIME_MS = 60 * 60 * 1000;

/**
 * The run a signature is bound to. `runId` is the first execution's run id: continue-as-new keeps it,
 * so a decision stays valid across links, while a new run started under a reused workflow id has
 * another one, so an old signature cannot be replayed into it.
 */
export interface RunIdentity {
  namespace: string;
  workflowId: string;
  runId: string;
}

export interface DecisionMessage extends RunIdentity {
  v: typeof SIGNED_MESSAGE_VERSION;
  kind: 'decision';
  callId: string;
  /** sha256 (hex) of the canonical JSON of the call's arguments: what the person approved. */
  argumentsHash: string;
  decision: string;
  approver: string;
  scope: string | null;
  prefix: string | null;
  reason: string | null;
  expiresAt: string;
  /**
   * Only on an approval with edited arguments: sha256 (hex) of the canonical JSON of the arguments the
   * person lets run instead. Absent otherwise, so signatures over unedited decisions read as before.
   */
  editedArgumentsHash?: string;
}

/** An answer to a `need_more_information` question (`userReply` / `submitReply`). */
export interface ReplyMessage extends RunIdentity {
  v: typeof SIGNED_MESSAGE_VERSION;
  kind: 'reply';
  /** The call id of the question answered. */
  callId: string;
  sender: string;
  text: string;
  expiresAt: string;
}

/** A follow-up message to a thread (`userMessage` / `sendMessage`). */
export interface FollowUpMessage extends RunIdentity {
  v: typeof SIGNED_MESSAGE_VERSION;
  kind: 'message';
  sender: string;
  text: string;
  expiresAt: string;
}

/**
 * A request to fork or resume a run with approvers (`requestedBy` of the new run's input), signed by
 * the approver who asks. It names the new run (whose id is fresh for every fork and resume) and the
 * run it continues, so it cannot start any other run.
 */
export interface RunRequestMessage {
  v: typeof SIGNED_MESSAGE_VERSION;
  kind: 'fork' | 'resume';
  namespace: string;
  /** The run the request starts. */
  workflowId: string;
  /** The run it forks or resumes. */
  from: string;
  requester: string;
  expiresAt: string;
}

/**
 * A raise of a run's spend budget (update `raiseBudget`, issue 34): the new limits, `null` where the
 * raise leaves a limit as it is.
 */
export interface BudgetMessage extends RunIdentity {
  v: typeof SIGNED_MESSAGE_VERSION;
  kind: 'budget';
  approver: string;
  maxUsd: number | null;
  maxTokens: number | null;
  expiresAt: string;
}

export type SignedMessage = DecisionMessage | ReplyMessage | FollowUpMessage | RunRequestMessage | BudgetMessage;

export function budgetMessage(run: RunIdentity, r: { approver: string; maxUsd?: number; maxTokens?: number; expiresAt: string }): BudgetMessage {
  return { v: SIGNED_MESSAGE_VERSION, kind: 'budget', namespace: run.namespace, workflowId: run.workflowId, runId: run.runId, approver: r.approver, maxUsd: r.maxUsd ?? null, maxTokens: r.maxTokens ?? null, expiresAt: r.expiresAt };
}

/** The exact text (then its UTF-8 bytes) an approver signs. */
export function signedText(message: SignedMessage): string {
  return canonicalJson(message);
}

/** sha256 (hex) of the canonical JSON of a call's arguments, as the signer and the verifier compute it. */
export function argumentsHash(input: unknown): string {
  const digest = sha256(new TextEncoder().encode(canonicalJson(input)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The decision fields a sender supplies; everything else in the message comes from the run. */
export interface DecisionFields {
  callId: string;
  decision: string;
  approver: string;
  scope?: string;
  prefix?: string;
  reason?: string;
  expiresAt: string;
  /** The edited arguments of an approval (the whole new input of the call), when the person changed them. */
  arguments?: unknown;
}

export function decisionMessage(run: RunIdentity, callArguments: unknown, d: DecisionFields): DecisionMessage {
  return {
    v: SIGNED_MESSAGE_VERSION,
    kind: 'decision',
    namespace: run.namespace,
    workflowId: run.workflowId,
    runId: run.runId,
    callId: d.callId,
    argumentsHash: argumentsHash(callArguments),
    decision: d.decision,
    approver: d.approver,
    scope: d.scope ?? null,
    prefix: d.prefix ?? null,
    reason: d.reason ?? null,
    expiresAt: d.expiresAt,
    ...(d.arguments === undefined ? {} : { editedArgumentsHash: argumentsHash(d.arguments) }),
  };
}

export function replyMessage(run: RunIdentity, r: { callId: string; sender: string; text: string; expiresAt: string }): ReplyMessage {
  return { v: SIGNED_MESSAGE_VERSION, kind: 'reply', namespace: run.namespace, workflowId: run.workflowId, runId: run.runId, callId: r.callId, sender: r.sender, text: r.text, expiresAt: r.expiresAt };
}

export function followUpMessage(run: RunIdentity, m: { sender: string; text: string; expiresAt: string }): FollowUpMessage {
  return { v: SIGNED_MESSAGE_VERSION, kind: 'message', namespace: run.namespace, workflowId: run.workflowId, runId: run.runId, sender: m.sender, text: m.text, expiresAt: m.expiresAt };
}

/**
 * The version 1 text (`workflowId\ncallId\ndecision\napprover[\nscope]`). Kept only to recognise an
 * old signature and say why it is refused; nothing is ever accepted over it.
 */
export function legacyDecisionText(d: { workflowId: string; callId: string; decision: string; approver: string; scope?: string }): string {
  const text = `${d.workflowId}\n${d.callId}\n${d.decision}\n${d.approver}`;
  return d.scope === undefined ? text : `${text}\n${d.scope}`;
}

export function runRequestMessage(r: { kind: 'fork' | 'resume'; namespace: string; workflowId: string; from: string; requester: string; expiresAt: string }): RunRequestMessage {
  return { v: SIGNED_MESSAGE_VERSION, kind: r.kind, namespace: r.namespace, workflowId: r.workflowId, from: r.from, requester: r.requester, expiresAt: r.expiresAt };
}
