import type { ToolResultBlock } from '../../contract/messages';
import type { ToolPermission } from '../../contract/tool-permission';
import { PERSON_APPROVED, RULE_READ_ONLY } from '../../contract/tool-permission';
import type { ToolResult } from '../../contract/tool-result';
import { pushBounded, StateLimits, type RunState, type TurnCall } from './run-state';
import { type ToolCallRecord } from '../../contract/run-records';
import type { CallApproval } from '../../contract/decision';
import type { TelemetrySlice } from './state/telemetry';

/** "shell: ls -la", "read_file: notes.md": how a call reads in status, events and the Web UI. */
export function callSummary(name: string, input: unknown): string {
  const args = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const main = args.command ?? args.path ?? args.query ?? args.summary ?? args.question ?? args.task;
  const text = typeof main === 'string' ? main : JSON.stringify(input ?? {});
  return `${name}: ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
}

export const toBlock = (callId: string, result: ToolResult): ToolResultBlock => ({
  type: 'tool_result',
  tool_use_id: callId,
  content: result.output,
  ...(result.success ? {} : { is_error: true }),
});

export const errorResult = (output: string): ToolResult => ({ success: false, shouldContinue: true, output });

/** Records a call in the recent-calls list, replacing an earlier record of the same call (waiting → success). */
export function recordCall(state: TelemetrySlice, entry: Omit<ToolCallRecord, 'summary'> & { input: unknown }): void {
  const { input, ...rest } = entry;
  const record: ToolCallRecord = { ...rest, summary: callSummary(entry.tool, input) };
  const at = state.recentToolCalls.findIndex((c) => c.callId === entry.callId);
  if (at >= 0) state.recentToolCalls.splice(at, 1);
  pushBounded(state.recentToolCalls, record, StateLimits.recentToolCalls);
}

/** Who let a call run: a person's decision, or the policy. Carried on the tool events and in the audit log. */
export function approvalOf(state: RunState, callId: string): CallApproval {
  const decided = [...state.decisions].reverse().find((d) => d.callId === callId);
  // Who sent the follow-up the call came from, so a call allowed by someone's "always" is traceable to them.
  const requestedBy = state.thread.requestedBy ? { requestedBy: state.thread.requestedBy } : {};
  return decided
    ? { decision: decided.decision, approver: decided.approver, verified: decided.verified, via: decided.via, ...requestedBy }
    : { decision: 'policy_allow', via: 'policy', ...requestedBy };
}

/** Whether the call's tool activity (or sub-agent run) was started and has not reported back. */
export const isStarted = (call: TurnCall): boolean => (call.stage.kind === 'run' || call.stage.kind === 'control') && call.stage.started;

/** Marks a call that runs (a tool or a sub-agent) started or back; a call at any other stage is left as it is. */
export function markStarted(call: TurnCall, started: boolean): void {
  if (call.stage.kind === 'run' || call.stage.kind === 'control') call.stage = { ...call.stage, started };
}

/**
 * The permission a call runs with: the one its stage carries. A call let run before stages carried
 * one (a checkpoint of an earlier release) runs read-only, unless the run's decisions show that a
 * person approved it.
 */
export function permissionOf(state: RunState, call: TurnCall): ToolPermission {
  if (call.stage.kind === 'run' && call.stage.permission) return { ...call.stage.permission };
  const decided = [...state.decisions].reverse().find((d) => d.callId === call.id);
  const byPerson = (decided?.decision === 'approve' || decided?.decision === 'approve_always') && (decided.via === 'signal' || decided.via === 'update');
  return byPerson ? { ...PERSON_APPROVED } : { ...RULE_READ_ONLY };
}

/** Gives a refused call its result: the model learns it was not run and why. */
export function rejectCall(state: RunState, callId: string, reason: string): void {
  const turn = state.turn!;
  const call = turn.calls.find((c) => c.id === callId)!;
  call.stage = { kind: 'refused', reason };
  call.result = toBlock(call.id, errorResult(`The call to ${call.name} was not run: ${reason}. Do not retry it unchanged; adapt your approach or explain.`));
  recordCall(state, { iteration: turn.iteration, callId: call.id, tool: call.name, input: call.input, outcome: 'rejected' });
}
