import { ActivityFailure, condition } from '@temporalio/workflow';
import { evaluatePolicy } from '../approvals/approval-policy';
import { controlToolNames } from '../control-tools';
import type { ToolResultBlock, ToolUseBlock } from '../conversation/messages';
import type { ToolResult } from '../tools/tool-result';
import { setup, tools } from './activity-stubs';
import { handleControlTool } from './control-tool-handlers';
import { emit } from './lifecycle-emitter';
import { refreshDetails, setPhase } from './run-display';
import { pushBounded, StateLimits, type RunState, type ToolCallRecord } from './run-state';

/** How a turn's processing ended: done, or interrupted to continue as new while it waits. */
export type TurnOutcome = { kind: 'done' } | { kind: 'continue_as_new' };

export function startTurn(state: RunState, calls: ToolUseBlock[], contextText: string): void {
  state.turn = {
    iteration: state.iteration,
    calls: calls.map((c) => ({ id: c.id, name: c.name, input: c.input })),
    contextText: contextText || undefined,
    verdicts: {},
    results: {},
  };
}

const toBlock = (callId: string, result: ToolResult): ToolResultBlock => ({
  type: 'tool_result',
  tool_use_id: callId,
  content: result.output,
  ...(result.success ? {} : { is_error: true }),
});

/** "shell: ls -la", "read_file: notes.md": how a call reads in status, events and the Web UI. */
export function callSummary(name: string, input: unknown): string {
  const args = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const main = args.command ?? args.path ?? args.query ?? args.summary ?? args.question;
  const text = typeof main === 'string' ? main : JSON.stringify(input ?? {});
  return `${name}: ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
}

function record(state: RunState, entry: ToolCallRecord): void {
  pushBounded(state.recentToolCalls, entry, StateLimits.recentToolCalls);
}

/** Applies the approval policy to every call of the turn that has no verdict yet. */
function classify(state: RunState): void {
  const turn = state.turn!;
  for (const call of turn.calls) {
    if (turn.verdicts[call.id] || turn.results[call.id]) continue;
    if (controlToolNames.has(call.name)) {
      turn.verdicts[call.id] = { kind: 'control' };
      continue;
    }
    const scope = state.agent.tools[call.name];
    if (scope === undefined) {
      const known = [...Object.keys(state.agent.tools), ...controlToolNames].join(', ');
      turn.results[call.id] = toBlock(call.id, {
        success: false,
        shouldContinue: true,
        output: `Unknown tool "${call.name}". Available tools: ${known}.`,
      });
      record(state, { iteration: turn.iteration, callId: call.id, tool: call.name, summary: callSummary(call.name, call.input), outcome: 'error' });
      continue;
    }
    const verdict = evaluatePolicy({
      tool: call.name,
      scope,
      input: call.input,
      run: state.input.toolApproval,
      agent: state.agent.approval,
      preferences: state.preferences,
    });
    if (verdict.action === 'allow') {
      turn.verdicts[call.id] = { kind: 'run' };
    } else if (verdict.action === 'reject') {
      turn.verdicts[call.id] = { kind: 'reject', reason: verdict.reason };
      const entry = { callId: call.id, tool: call.name, decision: 'policy_reject' as const, reason: verdict.reason, decidedAt: new Date().toISOString(), via: 'policy' as const };
      pushBounded(state.decisions, entry, StateLimits.decisions);
      // An event too, so the audit log records calls the policy refused, not only the ones that ran.
      emit(state, 'approvalDecided', { ...entry, arguments: call.input }, call.id);
    } else {
      turn.verdicts[call.id] = { kind: 'pending' };
      const pending = {
        callId: call.id,
        tool: call.name,
        input: call.input,
        requestedAt: new Date().toISOString(),
        iteration: turn.iteration,
        reason: verdict.reason,
        context: turn.contextText,
      };
      state.pendingApprovals.push(pending);
      record(state, { iteration: turn.iteration, callId: call.id, tool: call.name, summary: callSummary(call.name, call.input), outcome: 'waiting' });
      emit(state, 'approvalRequested', { ...pending }, call.id);
    }
  }
}

/**
 * Waits until every pending call is decided, an approval times out, or the history is large enough
 * that the run should continue as new while it waits. The deadline is absolute (request time plus
 * timeout), so it holds across continue-as-new.
 */
async function awaitDecisions(state: RunState, shouldContinueAsNew: () => boolean): Promise<'decided' | 'continue_as_new'> {
  const timeoutMs = state.input.approvalTimeoutSeconds * 1000;
  while (state.pendingApprovals.length > 0) {
    setPhase(state, 'waiting_approval');
    const deadline = Math.min(...state.pendingApprovals.map((p) => Date.parse(p.requestedAt) + timeoutMs));
    const remaining = Math.max(0, deadline - Date.now());
    const settled = await condition(() => state.pendingApprovals.length === 0 || shouldContinueAsNew(), remaining);
    if (state.pendingApprovals.length > 0 && shouldContinueAsNew()) return 'continue_as_new';
    if (!settled) {
      const now = Date.now();
      for (const p of state.pendingApprovals.filter((x) => Date.parse(x.requestedAt) + timeoutMs <= now)) {
        state.turn!.verdicts[p.callId] = { kind: 'reject', reason: `timed out: no decision within ${state.input.approvalTimeoutSeconds}s` };
        const entry = { callId: p.callId, tool: p.tool, decision: 'timed_out' as const, reason: 'timed out', decidedAt: new Date().toISOString(), via: 'timeout' as const };
        pushBounded(state.decisions, entry, StateLimits.decisions);
        emit(state, 'approvalDecided', { ...entry }, p.callId);
      }
      state.pendingApprovals = state.pendingApprovals.filter((p) => state.turn!.verdicts[p.callId]?.kind === 'pending');
    }
  }
  setPhase(state, 'running');
  return 'decided';
}

/** Writes queued "always"/"never" choices to the person's preference store. */
async function savePreferences(state: RunState): Promise<void> {
  while (state.unsavedPreferences.length > 0) {
    const change = state.unsavedPreferences[0]!;
    await setup.savePreference({ user: change.by ?? state.input.user, change });
    state.unsavedPreferences.shift();
  }
}

/**
 * Who let a call run: a person's decision, or the policy. Carried on the tool events so an audit
 * handler can record it even if it never saw the approval events (another worker, a restart).
 */
function approvalOf(state: RunState, callId: string): { decision: string; approver?: string; via: string } {
  const decided = state.decisions.find((d) => d.callId === callId);
  return decided ? { decision: decided.decision, approver: decided.approver, via: decided.via } : { decision: 'policy_allow', via: 'policy' };
}

async function runTool(state: RunState, call: { id: string; name: string; input: unknown }): Promise<ToolResult> {
  const summary = callSummary(call.name, call.input);
  const approval = approvalOf(state, call.id);
  emit(state, 'toolStarted', { tool: call.name, callId: call.id, arguments: call.input, approval }, call.id);
  const started = Date.now();
  let result: ToolResult;
  try {
    result = await tools.runTool.executeWithOptions({ summary }, [
      { agent: state.agent.name, tool: call.name, callId: call.id, input: call.input },
    ]);
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    const cause = error.cause?.message ?? error.message;
    result = { success: false, shouldContinue: true, output: `${call.name} could not finish (${cause}). Try a different approach.` };
  }
  const durationMs = Date.now() - started;
  record(state, { iteration: state.turn!.iteration, callId: call.id, tool: call.name, summary, outcome: result.success ? 'success' : 'error', durationMs });
  emit(state, 'toolEnded', { tool: call.name, callId: call.id, success: result.success, durationMs, arguments: call.input, approval, output: result.output.slice(0, 200) }, call.id);
  return result;
}

/** Asks the user and waits for the reply (or the timeout), continuing as new if history grows meanwhile. */
async function ask(state: RunState, callId: string, question: string, context: string | undefined, shouldContinueAsNew: () => boolean) {
  const turn = state.turn!;
  if (!state.pendingQuestion) state.pendingQuestion = { callId, question, context, askedAt: new Date().toISOString() };
  setPhase(state, 'waiting_input');
  const deadline = Date.parse(state.pendingQuestion.askedAt) + state.input.approvalTimeoutSeconds * 1000;
  const answered = await condition(() => turn.results[callId] !== undefined || shouldContinueAsNew(), Math.max(0, deadline - Date.now()));
  if (turn.results[callId] === undefined && answered) return 'continue_as_new' as const;
  if (turn.results[callId] === undefined) {
    state.pendingQuestion = undefined;
    turn.results[callId] = toBlock(callId, {
      success: false,
      shouldContinue: true,
      output: `The user did not answer within ${state.input.approvalTimeoutSeconds}s. Continue without the answer, or end with complete_task (blocked).`,
    });
  }
  setPhase(state, 'running');
  return 'answered' as const;
}

/**
 * Decides and runs the current turn's tool calls, in the order the model made them, and appends one
 * user message with all results in that order. Re-entrant: after continue-as-new it picks up the
 * calls that have no result yet.
 */
export async function processTurn(state: RunState, shouldContinueAsNew: () => boolean): Promise<TurnOutcome> {
  const turn = state.turn!;
  classify(state);
  refreshDetails(state);
  if ((await awaitDecisions(state, shouldContinueAsNew)) === 'continue_as_new') return { kind: 'continue_as_new' };
  await savePreferences(state);

  for (const call of turn.calls) {
    if (turn.results[call.id]) continue;
    const verdict = turn.verdicts[call.id]!;
    if (verdict.kind === 'run') {
      turn.results[call.id] = toBlock(call.id, await runTool(state, call));
    } else if (verdict.kind === 'reject') {
      turn.results[call.id] = toBlock(call.id, {
        success: false,
        shouldContinue: true,
        output: `The call to ${call.name} was not run: ${verdict.reason}. Do not retry it unchanged; adapt your approach or explain.`,
      });
      record(state, { iteration: turn.iteration, callId: call.id, tool: call.name, summary: callSummary(call.name, call.input), outcome: 'rejected' });
    } else if (verdict.kind === 'control') {
      const outcome = handleControlTool(state, call.name, call.input);
      if (outcome.kind === 'ask') {
        if ((await ask(state, call.id, outcome.question, outcome.context, shouldContinueAsNew)) === 'continue_as_new') {
          return { kind: 'continue_as_new' };
        }
      } else {
        turn.results[call.id] = toBlock(call.id, outcome.result);
        // Kept in state at once, so a completion survives a continue-as-new later in the same turn.
        if (outcome.kind === 'complete') state.completion = outcome.completion;
        const ok = outcome.result.success ? 'success' : 'error';
        record(state, { iteration: turn.iteration, callId: call.id, tool: call.name, summary: callSummary(call.name, call.input), outcome: ok });
      }
    }
  }
  state.messages.push({ role: 'user', content: turn.calls.map((c) => turn.results[c.id]!) });
  state.turn = undefined;
  return { kind: 'done' };
}
