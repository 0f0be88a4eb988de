// Issue 32, finding 1: fork and resume of a run with approvers are decisions. Only an approver asks
// for them, the request is signed with their key (the workflow checks it against its registry, see
// workflows/run-requester.ts), and the new run runs as the requester's.
import type { Client } from '@temporalio/client';
import type { AgentRunInput } from '../contract/run-input';
import type { PermissionMode } from '../contract/permission-mode';
import { DEFAULT_SIGNATURE_LIFETIME_MS, runRequestMessage, signedText } from '../core/approvals/signatures/signed-message';
import { effectiveApprovers } from '../core/machine/decision-rules';
import type { RunState } from '../core/machine/run-state';
import { signWithApproverKey } from './approver-keys';
import { DecisionRefusedError } from './errors';

/** Refuses, before anything starts, a requester who is not an approver of a run that has approvers. */
export function checkRequester(state: RunState, from: string, kind: 'fork' | 'resume', requester: string | undefined): void {
  const approvers = effectiveApprovers(state);
  if (!approvers || (requester !== undefined && approvers.includes(requester))) return;
  const who = requester === undefined ? 'someone who does not say who they are' : `"${requester}"`;
  throw new DecisionRefusedError(`Only an approver of run ${from} (${approvers.join(', ') || 'none'}) may ${kind} it, not ${who}; nothing was started.`);
}

/** `requestedBy` for the new run's input, signed when the requester has a key. */
export function requestedBy(client: Client, r: { kind: 'fork' | 'resume'; workflowId: string; from: string; requester: string }): NonNullable<AgentRunInput['requestedBy']> {
  const expiresAt = new Date(Date.now() + DEFAULT_SIGNATURE_LIFETIME_MS).toISOString();
  const message = runRequestMessage({ ...r, namespace: client.options.namespace, expiresAt });
  const signature = signWithApproverKey(r.requester, signedText(message));
  return { name: r.requester, kind: r.kind, expiresAt, ...(signature ? { signature } : {}) };
}

/** From the mode that lets least run unasked to the one that lets most (as core/approvals/permission-mode.ts). */
const LOOSENESS: Record<PermissionMode, number> = { plan: 0, dontAsk: 1, default: 2, acceptEdits: 3 };

/** The strictest of the modes given (a fork never starts looser than its original is now). */
export function strictestMode(...modes: (PermissionMode | undefined)[]): PermissionMode | undefined {
  return modes.filter((m): m is PermissionMode => m !== undefined).sort((a, b) => LOOSENESS[a] - LOOSENESS[b])[0];
}
