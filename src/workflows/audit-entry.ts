import { AuditDecisionSchema } from '../contract/audit-decision';
import type { LifecycleEvent } from '../contract/lifecycle-event';
import { workflowInfo } from '@temporalio/workflow';
import type { AuditEntry } from '../runtime/audit/audit-record';
import type { RunState } from '../core/machine/run-state';

/** The fields every line the workflow writes of its own begins with: when, which run and link, which agent, which iteration. */
export function runLineHeader(state: RunState): Pick<AuditEntry, 'at' | 'run' | 'runId' | 'agent' | 'iteration'> {
  return { at: new Date().toISOString(), run: state.workflowId, runId: workflowInfo().runId, agent: state.input.agent, iteration: state.iteration };
}

/** How a line says whether the person behind it was checked against the approver registry. */
export const signedNote = (signed: boolean): string => (signed ? 'signed, checked against the approver registry' : 'unsigned: the worker has no approver registry');

/** The audit line a lifecycle event stands for, if any: decisions, and calls whose outcome is unknown. */
export function auditEntryOf(event: LifecycleEvent, before: RunState, after: RunState): AuditEntry | undefined {
  if (event.name === 'modeChanged') {
    const m = event.data;
    return { at: event.at, run: event.workflowId, runId: event.runId, agent: event.agent, iteration: event.iteration, kind: 'mode', tool: 'setMode', callId: event.key, mode: m.to, previousMode: m.from, approver: m.by, reason: m.reason, via: 'update' };
  }
  if (event.name === 'toolEnded' && event.data.ranBy === 'api') {
    // A server tool: no decision was made, the API ran it; the line says so (runs before server tools had none).
    const d = event.data;
    return { at: event.at, run: event.workflowId, runId: event.runId, agent: event.agent, iteration: event.iteration, tool: d.tool, callId: d.callId, kind: 'call', arguments: d.arguments, via: 'api', reason: 'ran by the API (server tool)', outcome: d.success ? 'success' : 'error' };
  }
  if (event.name !== 'approvalDecided' && !(event.name === 'toolEnded' && event.data.outcome === 'unknown')) return undefined;
  const d = event.data;
  const callId = d.callId;
  const call = (after.turn ?? before.turn)?.calls.find((c) => c.id === callId) ?? before.turn?.calls.find((c) => c.id === callId);
  const base = { at: event.at, run: event.workflowId, runId: event.runId, agent: event.agent, iteration: event.iteration, tool: d.tool, callId };
  if (event.name === 'toolEnded') {
    return { ...base, kind: 'call', arguments: call?.input ?? event.data.arguments, decision: 'outcome_unknown', outcome: 'unknown', durationMs: event.data.durationMs || undefined, idempotencyKey: `${event.workflowId}/${callId}` };
  }
  const decided = event.data;
  return {
    ...base,
    kind: 'decision',
    // An edited call: the log keeps what the model asked for and what the person let run instead.
    arguments: decided.edited ? decided.edited.original : (call?.input ?? decided.arguments),
    ...(decided.edited ? { editedArguments: decided.edited.arguments } : {}),
    // The run's decision record says `string`; the audit log takes only its enum, checked here.
    decision: AuditDecisionSchema.parse(decided.decision),
    approver: decided.approver,
    verified: decided.verified,
    via: decided.via,
    reason: decided.reason,
  };
}
