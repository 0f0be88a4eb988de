// Decisions and replies from the page, made as the logged-in person. They go through the
// `decideApproval` / `submitReply` updates (via the CLI's helpers, which also sign with the person's
// key), so the page learns at once whether the run applied them, and why not.
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { queryStatus, sendDecision, sendReply } from '../../client/approval-helpers';
import { DecisionRefusedError, NoWorkerAnsweredError } from '../../client/errors';
import { ApprovalDecisionSchema, type ApprovalDecision } from '../../contract/approval-decision';
import { ArgumentsHashSchema, callsAsSeen } from './seen-calls';

const MISSING_HASH =
  "argumentsHash is missing: send the sha-256 of the call's arguments as the page showed them (the inbox entry's argumentsHash), so the decision covers what the person saw; reload the page and decide again";

export const DecisionRequestSchema = z.object({
  workflowId: z.string().min(1),
  callId: z.string().min(1),
  decision: ApprovalDecisionSchema.shape.decision,
  /** "Always"/"Never" for every call of the tool, not only what the person saw (the default scope). */
  wholeTool: z.boolean().optional(),
  reason: z.string().max(2_000).optional(),
  /** Approve with these arguments instead (the page showed the person the change before sending). */
  arguments: ApprovalDecisionSchema.shape.arguments,
  /**
   * The hash of the call's arguments the page showed (its inbox entry's `argumentsHash`): required
   * (issue 32), so a call whose arguments changed since is refused, and the signature covers what was shown.
   */
  argumentsHash: z
    .string({ error: (issue) => (issue.input === undefined ? MISSING_HASH : undefined) })
    .pipe(ArgumentsHashSchema),
});
export type DecisionRequest = z.infer<typeof DecisionRequestSchema>;

export const ReplyRequestSchema = z.object({
  workflowId: z.string().min(1),
  /** The question answered, so a reply to a question someone else answered says so. */
  callId: z.string().min(1),
  text: z.string().trim().min(1, 'the answer is empty').max(100_000),
});
export type ReplyRequest = z.infer<typeof ReplyRequestSchema>;

/** `applied`; `already_decided` (someone was first: not an error); `refused` by the run, with its reason. */
export type ActionOutcome = { outcome: 'applied' | 'already_decided' | 'refused' | 'no_worker'; message: string };

/** After a refusal: was the call decided meanwhile (by anyone, from any client)? */
async function decidedElsewhere(client: Client, workflowId: string, callId: string): Promise<string | undefined> {
  const status = await queryStatus(client.workflow.getHandle(workflowId), 3_000).catch(() => undefined);
  const record = status?.decisions.find((d) => d.callId === callId);
  if (!record) return undefined;
  return `Already decided: ${record.decision}${record.approver ? ` by ${record.approver}` : ''} at ${record.decidedAt}.`;
}

/** Runs an update and says what it came to; `onRefusal` tells "someone was first" apart from a refusal. */
export async function settle(attempt: () => Promise<{ message: string }>, onRefusal: (message: string) => Promise<string | undefined>): Promise<ActionOutcome> {
  try {
    return { outcome: 'applied', message: (await attempt()).message };
  } catch (error) {
    if (error instanceof NoWorkerAnsweredError) return { outcome: 'no_worker', message: error.message };
    if (!(error instanceof DecisionRefusedError)) throw error;
    const already = await onRefusal(error.message);
    return already ? { outcome: 'already_decided', message: already } : { outcome: 'refused', message: error.message };
  }
}

export function decideAs(client: Client, user: string, request: DecisionRequest): Promise<ActionOutcome> {
  const payload: ApprovalDecision = { callId: request.callId, decision: request.decision, approver: user };
  if (request.reason) payload.reason = request.reason;
  if (request.arguments) payload.arguments = request.arguments;
  if (request.wholeTool && (request.decision === 'approve_always' || request.decision === 'reject_always')) payload.scope = 'tool';
  const handle = client.workflow.getHandle(request.workflowId);
  const seen = { workflowId: request.workflowId, callId: request.callId, argumentsHash: request.argumentsHash };
  // The run refuses it too (32a's contract) when the call's arguments are not the ones shown any more.
  Object.assign(payload, { workflowId: seen.workflowId, argumentsHash: seen.argumentsHash });
  return settle(
    async () => sendDecision(handle, payload, (await callsAsSeen(handle, [seen]))[0]),
    () => decidedElsewhere(client, request.workflowId, request.callId),
  );
}

/** Answers as the logged-in person: a run with approvers takes answers only from them (signed with a registry). */
export function replyAs(client: Client, user: string, request: ReplyRequest): Promise<ActionOutcome> {
  const handle = client.workflow.getHandle(request.workflowId);
  return settle(
    () => sendReply(handle, { text: request.text, callId: request.callId, sender: user }),
    async () => {
      const status = await queryStatus(handle, 3_000).catch(() => undefined);
      // The question is no longer the one waiting: someone answered it (or it timed out).
      return status && status.pendingQuestion?.callId !== request.callId ? 'Already answered: this question is no longer waiting.' : undefined;
    },
  );
}
