// The signing side of approvals, replies and follow-up messages. What is signed is rebuilt from the
// server's own facts (namespace, the first execution's run id from describe, the call's arguments from
// the run's pending approval), exactly as the workflow rebuilds it, so a signature means one call of
// one run. Without a key for the person (`agentctl keys create`) everything goes unsigned, which a
// worker without an approver registry accepts.
import type { WorkflowHandle } from '@temporalio/client';
import type { ApprovalDecision, FollowUp, UserReply } from '../contract/approval-decision';
import {
  argumentsHash,
  decisionMessage,
  DEFAULT_SIGNATURE_LIFETIME_MS,
  followUpMessage,
  replyMessage,
  signedText,
  type RunIdentity,
} from '../core/approvals/signatures/signed-message';
import type { PendingApproval, PendingQuestionView } from '../contract/run-status';
import { hasApproverKey, signWithApproverKey } from './approver-keys';
import { DecisionRefusedError } from './errors';

/** The run `workflowId` (in `handle`'s namespace) as the server describes it. */
export async function describeRunIdentity(handle: WorkflowHandle, workflowId = handle.workflowId): Promise<RunIdentity> {
  const description = await handle.client.getHandle(workflowId).describe();
  // The first execution's run id survives continue-as-new; a new run under a reused id has another one.
  const runId = description.raw.workflowExecutionInfo?.firstRunId || description.runId;
  return { namespace: handle.client.options.namespace, workflowId, runId };
}

const expiry = (): string => new Date(Date.now() + DEFAULT_SIGNATURE_LIFETIME_MS).toISOString();

/**
 * `decision`, signed by its approver when they have a key. `pending` reads the run's pending calls
 * (only when there is something to sign): the call's arguments, as the run reports them, are signed,
 * and the payload says which (`argumentsHash`) and which run of the tree waits for the call
 * (`workflowId`). A decision that already carries the hash of what the person was shown is refused
 * here when the call's arguments have changed since: the run would refuse it too.
 */
export async function signDecision(handle: WorkflowHandle, decision: ApprovalDecision, pending: () => Promise<readonly PendingApproval[]>): Promise<ApprovalDecision> {
  const approver = decision.approver;
  if (decision.signature || !approver || !hasApproverKey(approver)) return decision;
  const call = (await pending()).find((p) => p.callId === decision.callId);
  if (!call) throw new DecisionRefusedError(`Run ${handle.workflowId} has no call ${decision.callId} waiting for approval, so there is nothing to sign.`);
  const hash = argumentsHash(call.input);
  if (decision.argumentsHash !== undefined && decision.argumentsHash !== hash) {
    throw new DecisionRefusedError(`The arguments of ${decision.callId} changed since they were shown; look at the call again (\`agentctl pending ${handle.workflowId}\`) and decide what it asks now.`);
  }
  const run = await describeRunIdentity(handle, call.workflowId || handle.workflowId);
  const expiresAt = expiry();
  const message = decisionMessage(run, call.input, { ...decision, approver, expiresAt });
  return { ...decision, workflowId: run.workflowId, argumentsHash: hash, expiresAt, signature: signWithApproverKey(approver, signedText(message)) };
}

/** `reply`, naming the question it answers and signed by its sender when they have a key. */
export async function signReply(handle: WorkflowHandle, reply: UserReply, waiting: () => Promise<readonly PendingQuestionView[]>): Promise<UserReply> {
  const sender = reply.sender;
  if (reply.signature || !sender || !hasApproverKey(sender)) return reply;
  const questions = await waiting();
  const question = reply.callId ? questions.find((q) => q.callId === reply.callId) : questions.length === 1 ? questions[0] : undefined;
  if (!question) {
    throw new DecisionRefusedError(
      questions.length === 0 ? `Run ${handle.workflowId} has no question waiting for a reply.` : `Several questions are waiting (${questions.map((q) => q.callId).join(', ')}); name one.`,
    );
  }
  const run = await describeRunIdentity(handle, question.workflowId);
  const expiresAt = expiry();
  const message = replyMessage(run, { callId: question.callId, sender, text: reply.text, expiresAt });
  return { ...reply, callId: question.callId, expiresAt, signature: signWithApproverKey(sender, signedText(message)) };
}

/** `message` for a thread, signed by its sender when they have a key. */
export async function signFollowUp(handle: WorkflowHandle, message: FollowUp): Promise<FollowUp> {
  const sender = message.sender;
  if (message.signature || !sender || !hasApproverKey(sender)) return message;
  const run = await describeRunIdentity(handle);
  const expiresAt = expiry();
  const signed = followUpMessage(run, { sender, text: message.text, expiresAt });
  return { ...message, expiresAt, signature: signWithApproverKey(sender, signedText(signed)) };
}
