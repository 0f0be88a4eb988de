import type { ApprovalDecision } from '../../contract/approval-decision';
import type { ShellAnalysis } from '../../contract/shell-analysis';
import type { ToolResult } from '../../contract/tool-result';
import { recordCall, rejectCall } from './call-records';
import { policyFor, recordDecision } from './decisions';
import type { RunState, TurnCall } from './run-state';
import type { TransitionContext } from './transition-context';

/**
 * A person approves a parked call with other arguments. The edit replaces the call's input and is
 * judged by the run's rules again, as if the model had asked for it: a reject rule or a "never" that
 * covers it refuses it, and a command the worker's analysis does not fully understand parks again for
 * the same approvers. Anything else runs as the person's approval. Returns whether the call may run.
 */
export function applyEdit(state: RunState, call: TurnCall, decision: ApprovalDecision, analysis: ShellAnalysis | undefined, verified: boolean, ctx: TransitionContext): 'run' | 'refused' | 'asks_again' {
  // A second edit of a call that parked again keeps what the model first asked for.
  const original = call.edited?.original ?? call.input;
  call.input = decision.arguments;
  call.analysis = analysis;
  call.edited = { ...(decision.approver === undefined ? {} : { by: decision.approver }), original };
  // The person is deciding this call, so the mode (which is about calls nobody is asked about) does
  // not apply; the rules and remembered choices do.
  const verdict = policyFor(state, call, 'default');
  if (verdict.action === 'reject') {
    recordDecision(state, call, { decision: 'policy_reject', reason: `the edited call: ${verdict.reason}`, approver: decision.approver, verified, via: 'policy' }, ctx);
    rejectCall(state, call.id, `${editedBy(call)} changed it, and the edited call is refused: ${verdict.reason}`);
    return 'refused';
  }
  if (analysis && !analysis.understood) {
    const reason = `${editedBy(call)} edited it, and the edited command is not fully understood (${analysis.problems.join('; ') || 'unknown syntax'}): decide on the edited call`;
    call.stage = { kind: 'person', requestedAt: ctx.at, reason };
    recordCall(state, { iteration: state.turn!.iteration, callId: call.id, tool: call.name, input: call.input, outcome: 'waiting' });
    ctx.emit(state, 'approvalRequested', { callId: call.id, tool: call.name, input: call.input, requestedAt: ctx.at, iteration: state.turn!.iteration, reason, context: state.turn!.contextText }, `${call.id}-edited`);
    return 'asks_again';
  }
  return 'run';
}

const editedBy = (call: TurnCall) => (call.edited?.by ? `${call.edited.by}` : 'a person');

/** The top-level arguments an edit changed, as `name: old → new` (JSON, each cut to 200 characters). */
export function describeEdit(original: unknown, edited: unknown): string {
  const before = asRecord(original);
  const after = asRecord(edited);
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value).slice(0, 200));
  const changed = names.filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
  return changed.map((name) => `${name}: ${show(before[name])} → ${show(after[name])}`).join('; ') || 'nothing';
}

const asRecord = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {});

/**
 * The result the model reads for an edited call starts with who changed it and how, so output that
 * does not match what it asked for does not confuse it.
 */
export function withEditNote(call: TurnCall, result: ToolResult): ToolResult {
  if (!call.edited) return result;
  const note = `[${editedBy(call)} edited this call before approving it (${describeEdit(call.edited.original, call.input)}); the output below is of the edited call]`;
  return { ...result, output: `${note}\n${result.output}` };
}
