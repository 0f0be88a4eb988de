import type { FollowUp } from '../../contract/approval-decision';
import type { SetMode } from '../../contract/permission-mode';
import { modeLoosens } from '../approvals/permission-mode';
import { effectiveApprovers, type SigningEnv } from './decision-rules';
import { StateLimits, type RunState } from './run-state';
import { senderRefusal } from './sender-rules';

/**
 * The checks a person's follow-up, close and mode switch must pass, as pure functions of the state:
 * an update's validator refuses with them before anything is written to history, and the run's loop
 * asks them again right before it applies the message (the state may have moved since it arrived).
 */

/** UTF-8 bytes of a string, counted without an encoder (workflow code may lack one). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const KiB = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

/** Why the inbox cannot take one more message (its count, or its bytes with the senders' names), or undefined. */
export function inboxRefusal(state: RunState, text: string, sender: string | undefined): string | undefined {
  const { inbox, inboxFrom } = state.thread;
  const what = state.input.followUps ? 'follow-up' : 'steering';
  if (inbox.length >= StateLimits.inbox) {
    return `the run's inbox is full (${StateLimits.inbox} messages wait for the agent): this ${what} message is refused; send it again once the agent has taken some up`;
  }
  const held = inbox.reduce((sum, t) => sum + utf8Bytes(t), 0) + (inboxFrom ?? []).reduce((sum, s) => sum + utf8Bytes(s), 0);
  const adding = utf8Bytes(text) + utf8Bytes(sender ?? '');
  if (held + adding > StateLimits.inboxBytes) {
    return `the run's inbox is full (its waiting messages may hold ${KiB(StateLimits.inboxBytes)}; they hold ${KiB(held)} and this one ${KiB(adding)}): this ${what} message is refused; send it again once the agent has taken some up, or shorten it`;
  }
  return undefined;
}

/** Why a thread takes no more follow-ups: it reached its count or size of completions (each queued message will add one). */
export function threadFullRefusal(state: RunState): string | undefined {
  if (!state.input.followUps) return undefined;
  const { completions, inbox } = state.thread;
  if (completions.length + inbox.length >= StateLimits.threadCompletions) {
    return `this thread has reached its limit of ${StateLimits.threadCompletions} completions (with the messages waiting for theirs): close it and start a new thread to go on`;
  }
  const bytes = completions.reduce((sum, c) => sum + utf8Bytes(JSON.stringify(c)), 0);
  if (bytes >= StateLimits.threadCompletionBytes) {
    return `this thread's completions fill ${KiB(bytes)}, its limit of ${KiB(StateLimits.threadCompletionBytes)}: close it and start a new thread to go on`;
  }
  return undefined;
}

/** Why a follow-up (signal `userMessage`, update `sendMessage`) is refused, or undefined; `steering`: plain runs take it as steering. */
export function followUpRefusal(state: RunState, message: FollowUp, env: SigningEnv & { steering: boolean }): string | undefined {
  if (!state.input.followUps && !env.steering) return 'This run does not take follow-up messages; start it with followUps: true';
  if (state.outcome) return 'The run has ended';
  return senderRefusal(state, 'message', message, env) ?? threadFullRefusal(state) ?? inboxRefusal(state, message.text, message.sender);
}

/** Why `closeThread` is refused, or undefined. */
export function closeRefusal(state: RunState): string | undefined {
  if (!state.input.followUps) return 'This run is not a thread; cancel it to stop it';
  if (state.outcome) return 'The run has ended';
  return undefined;
}

/** Why `setMode` is refused: the run ended, the sender is no approver, or a signed run would be loosened. */
export function modeRefusal(state: RunState, change: SetMode): string | undefined {
  if (state.outcome) return 'The run has ended; its mode cannot change';
  const approvers = effectiveApprovers(state);
  const by = change.by;
  if (approvers && (!by || !approvers.includes(by))) {
    return `${by ? `"${by}"` : 'a switch without "by"'} may not change this run's mode (approvers: ${approvers.join(', ') || 'none'})`;
  }
  const from = state.mode;
  if (state.approverKeys !== undefined && modeLoosens(from, change.mode)) {
    return (
      `This run takes signed decisions only, and a mode switch is not signed, so it may only tighten the run (from ${from} to a stricter mode). ` +
      `Switching to ${change.mode} would let calls run unasked: approve them with signed decisions instead.`
    );
  }
  return undefined;
}
