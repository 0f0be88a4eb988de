import { approvalOf, errorResult, isStarted, markStarted, recordCall, toBlock } from './call-records';
import type { RunState, TurnCall } from './run-state';
import type { TransitionContext } from './transition-context';
import type { ToolResult } from '../../contract/tool-result';
import { withEditNote } from './on-edit';

/** The "outcome unknown" wording is a contract: clients and tests look for this prefix. */
export const OUTCOME_UNKNOWN_PREFIX = 'outcome unknown';

/**
 * Why a call ended without an answer, as far as the workflow can tell: its worker stopped heartbeating
 * (it died, or hung), it ran past its time limit, it failed in the worker before it could report, or
 * the run itself stopped while it ran (a resumed run). Absent means the worker stopped, as it always did.
 */
export type OutcomeUnknownReason = { kind: 'worker_stopped' } | { kind: 'timed_out'; limitSeconds?: number } | { kind: 'failed' } | { kind: 'run_stopped' };

function whatHappened(reason: OutcomeUnknownReason): string {
  switch (reason.kind) {
    case 'worker_stopped':
      // Heartbeats that stop reaching the server look the same as a dead worker: say only what is known.
      return 'the worker running this call stopped reporting (it stopped, hung, or lost its connection to the server)';
    case 'timed_out':
      return `the call timed out (it ran longer than its limit${reason.limitSeconds === undefined ? '' : ` of ${reason.limitSeconds} s`})`;
    case 'failed':
      return 'the call failed before it could report back';
    case 'run_stopped':
      return 'the run stopped while this call ran';
  }
}

export function outcomeUnknownText(tool: string, cause: string, reason: OutcomeUnknownReason = { kind: 'worker_stopped' }): string {
  return (
    `${OUTCOME_UNKNOWN_PREFIX}: ${whatHappened(reason)}; it may or may not have taken effect; check before retrying. ` +
    `(${tool} is not safe to run twice, so it was not run again; cause: ${cause})`
  );
}

function callOf(state: RunState, callId: string): TurnCall | undefined {
  return state.turn?.calls.find((c) => c.id === callId);
}

export function onToolStarted(state: RunState, callId: string, ctx: TransitionContext): void {
  const call = callOf(state, callId);
  if (!call || call.result) return;
  markStarted(call, true);
  recordCall(state, { iteration: state.turn!.iteration, callId, tool: call.name, input: call.input, outcome: 'running' });
  ctx.emit(state, 'toolStarted', { tool: call.name, callId, arguments: call.input, approval: approvalOf(state, callId) }, callId);
}

export function onToolFinished(state: RunState, callId: string, result: ToolResult, durationMs: number, ctx: TransitionContext, legacy = false): void {
  const call = callOf(state, callId);
  if (!call || call.result) return;
  call.result = toBlock(callId, withEditNote(call, result));
  markStarted(call, false);
  // Strictly false: a tool written in plain JS that leaves the flag out goes on, as it always did.
  if (result.shouldContinue === false && !legacy) endWith(state, call.name, result);
  recordCall(state, { iteration: state.turn!.iteration, callId, tool: call.name, input: call.input, outcome: result.success ? 'success' : 'error', durationMs });
  ctx.emit(
    state,
    'toolEnded',
    { tool: call.name, callId, success: result.success, durationMs, arguments: call.input, approval: approvalOf(state, callId), output: result.output.slice(0, 200) },
    callId,
  );
}

/**
 * A tool said the loop should stop (`ToolResult.complete`): its output becomes the completion, kept in
 * state at once like complete_task's. The turn still finishes its other calls; the run then ends the
 * way a completed one does (output guardrails first; a thread waits for its next message). A
 * completion already made in this turn stands, and complete_task later in the turn replaces this one.
 */
function endWith(state: RunState, tool: string, result: ToolResult): void {
  if (state.completion) return;
  const summary = result.output.trim() === '' ? `${tool} ended the run` : result.output;
  state.completion = { summary, status: result.success ? 'success' : 'blocked' };
}

/** A call that must not run twice stopped without an answer: the model is told, and it is recorded. */
export function onToolOutcomeUnknown(state: RunState, callId: string, cause: string, durationMs: number, ctx: TransitionContext, reason?: OutcomeUnknownReason): void {
  const call = callOf(state, callId);
  if (!call || call.result) return;
  call.result = toBlock(callId, errorResult(outcomeUnknownText(call.name, cause, reason)));
  markStarted(call, false);
  recordCall(state, { iteration: state.turn!.iteration, callId, tool: call.name, input: call.input, outcome: 'unknown', durationMs });
  ctx.emit(
    state,
    'toolEnded',
    { tool: call.name, callId, success: false, outcome: 'unknown', durationMs, arguments: call.input, approval: approvalOf(state, callId), output: OUTCOME_UNKNOWN_PREFIX },
    callId,
  );
}

/**
 * A run continued from one that failed or was cancelled: calls that were running when it stopped run
 * again if their tool is safe to repeat, and are reported as "outcome unknown" otherwise.
 */
export function onResumed(state: RunState, from: string, ctx: TransitionContext): void {
  state.outcome = undefined;
  state.phase = 'running';
  state.compacting = false;
  for (const call of state.turn?.calls.filter((c) => isStarted(c) && !c.result) ?? []) {
    if (state.agent.tools[call.name]?.idempotent) markStarted(call, false);
    else onToolOutcomeUnknown(state, call.id, `the run ${from} stopped while it ran`, 0, ctx, { kind: 'run_stopped' });
  }
}
