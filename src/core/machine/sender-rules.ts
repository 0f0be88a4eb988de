import type { FollowUp, UserReply } from '../../contract/approval-decision';
import { checkSignature } from '../approvals/signatures/decision-signature';
import { followUpMessage, replyMessage } from '../approvals/signatures/signed-message';
import { effectiveApprovers, replayOf, runIdentity, type SigningEnv } from './decision-rules';
import type { RunState } from './run-state';

/**
 * Why an answer to a question (`reply`) or a follow-up message (`message`) may not steer this run, or
 * undefined when it may. A run with approvers takes both only from those approvers, since an answer
 * or a message decides what the agent does next as much as an approval does; with an approver
 * registry the sender must also sign the text (signatures/signed-message.ts). A run without
 * approvers takes them from anyone who reaches the namespace, as before. Pure, so the update
 * validators and the signal handlers refuse exactly the same things.
 */
export function senderRefusal(state: RunState, kind: 'reply' | 'message', payload: UserReply | FollowUp, env: SigningEnv): string | undefined {
  const approvers = effectiveApprovers(state);
  // An execution from before the approval-channel-v2 patch took answers and messages from anyone.
  if (!approvers || env.legacy) return undefined;
  const what = kind === 'reply' ? 'answer questions of' : 'send follow-up messages to';
  const sender = payload.sender;
  if (!sender || !approvers.includes(sender)) {
    const who = sender ? `"${sender}"` : 'a sender who gives no name';
    return `${who} may not ${what} this run (approvers: ${approvers.join(', ') || 'none'}); ignored`;
  }
  if (state.approverKeys !== undefined && payload.signature && payload.expiresAt === undefined) {
    return `signed ${kind} has no expiresAt: the signature must cover one; send it again with agentctl or the console`;
  }
  const replay = replayOf(state, payload, env);
  if (replay) return `${replay}; ignored`;
  const run = runIdentity(state, env);
  const message =
    payload.expiresAt === undefined
      ? undefined
      : kind === 'reply'
        ? replyMessage(run, { callId: state.pendingQuestion?.callId ?? '', sender, text: payload.text, expiresAt: payload.expiresAt })
        : followUpMessage(run, { sender, text: payload.text, expiresAt: payload.expiresAt });
  const check = checkSignature({ registry: state.approverKeys, signer: sender, signature: payload.signature, message, now: env.now, kind });
  return check.ok ? undefined : `${check.reason}; ignored`;
}
