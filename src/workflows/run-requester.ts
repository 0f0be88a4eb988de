import { ApplicationFailure, workflowInfo } from '@temporalio/workflow';
import { FailureType } from '../contract/errors';
import type { ParsedRunInput } from '../contract/run-input';
import { checkSignature } from '../core/approvals/signatures/decision-signature';
import { runRequestMessage } from '../core/approvals/signatures/signed-message';
import { effectiveApprovers } from '../core/machine/decision-rules';
import type { RunState } from '../core/machine/run-state';
import type { AuditEntry } from '../runtime/audit/audit-record';
import { runLineHeader, signedNote } from './audit-entry';

/**
 * Issue 32, finding 1: who may continue a run (fork or resume, `resumedFrom`). A run with approvers
 * is continued only at the request of one of them (`requestedBy`), signed with their registered key
 * when the worker has a registry; anything else fails at start, so a raw client cannot start a fork
 * that inherits the original's approvals. Why not, or undefined when it may.
 */
export function requesterRefusal(state: RunState, input: ParsedRunInput, registry: Readonly<Record<string, string>> | undefined): string | undefined {
  const approvers = effectiveApprovers(state);
  if (!approvers) return undefined;
  const request = input.requestedBy;
  const list = approvers.join(', ') || 'none';
  if (!request) return `run ${input.resumedFrom} has approvers (${list}), so only one of them may fork or resume it, and this start names no requester (requestedBy): fork or resume it with agentctl or the console as an approver`;
  if (!approvers.includes(request.name)) return `"${request.name}" may not fork or resume run ${input.resumedFrom} (approvers: ${list})`;
  const { namespace, workflowId } = workflowInfo();
  const message = request.expiresAt === undefined
    ? undefined
    : runRequestMessage({ kind: request.kind, namespace, workflowId, from: input.resumedFrom ?? '', requester: request.name, expiresAt: request.expiresAt });
  const check = checkSignature({ registry, signer: request.name, signature: request.signature, message, now: Date.now(), kind: request.kind });
  return check.ok ? undefined : `the ${request.kind} request of "${request.name}" is refused: ${check.reason}`;
}

/**
 * The audit line of a continuation of a run with approvers: who asked (signed when the worker has a
 * registry: `adoptRequester` refused the start otherwise), for a fork or a resume, of which run and from
 * which iteration. Written at the new run's start, before any tool runs. Undefined for a run without
 * approvers (anyone may continue it; nobody is named).
 */
export function requesterAuditEntry(state: RunState, input: ParsedRunInput, registry: Readonly<Record<string, string>> | undefined): AuditEntry | undefined {
  const request = input.requestedBy;
  if (!effectiveApprovers(state) || !request || input.resumedFrom === undefined) return undefined;
  const signed = registry !== undefined;
  const what = request.kind === 'fork' ? `fork of ${input.resumedFrom} from its checkpoint after iteration ${state.iteration}` : `resume of ${input.resumedFrom} from its last checkpoint (iteration ${state.iteration})`;
  return {
    ...runLineHeader(state),
    kind: 'request',
    tool: request.kind,
    callId: `${request.kind}:${input.resumedFrom}`,
    approver: request.name,
    requestedBy: request.name,
    verified: signed,
    via: 'start',
    reason: `${what}, requested by ${request.name} (${signedNote(signed)})`,
  };
}

/**
 * Refuses a continuation the requester may not ask for, then makes the run the requester's: their
 * remembered choices load at start, and of the earlier run's own choices only those they made stay.
 */
export function adoptRequester(state: RunState, input: ParsedRunInput, registry: Readonly<Record<string, string>> | undefined): void {
  const refusal = requesterRefusal(state, input, registry);
  if (refusal) throw ApplicationFailure.create({ type: FailureType.InvalidRunInput, nonRetryable: true, message: `Refused to run: ${refusal}.` });
  const requester = input.requestedBy?.name;
  if (requester === undefined) return;
  state.choicesThisRun = state.choicesThisRun.filter((rule) => rule.by === requester);
  state.input.user = requester;
}
