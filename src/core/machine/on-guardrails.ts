import { ruleAllowed } from '../../contract/tool-permission';
import { recordCall, rejectCall } from './call-records';
import type { RunState, TurnCall } from './run-state';
import { recordDecision } from './decisions';
import type { TransitionContext } from './transition-context';

/** One guardrail's answer, as the worker reports it. */
export interface GuardrailResult {
  name: string;
  pass: boolean;
  reason?: string;
  /** For tool guardrails: the call it looked at. */
  callId?: string;
}

export const guardrailsOn = (state: RunState, on: 'input' | 'output' | 'tool') => state.agent.guardrails.filter((g) => g.on === on);

/** Whether a call still waits for the agent's tool guardrails before the policy may judge it. */
export function needsToolGuardrails(state: RunState, call: TurnCall): boolean {
  if (call.stage.kind !== 'guardrail') return false;
  return guardrailsOn(state, 'tool').some((g) => !g.tools || g.tools.includes(call.name));
}

/** Ends the run: a guardrail tripped. The result says which, why, and at which step. */
function trip(state: RunState, guardrail: string, reason: string, step: string, ctx: TransitionContext): void {
  if (state.outcome) return;
  state.outcome = { kind: 'guardrail_tripped', guardrail, reason, step };
  ctx.emit(state, 'guardrailTripped', { guardrail, reason, step }, step);
  ctx.emit(state, 'agentEnded', { status: 'guardrail_tripped', guardrail, reason, step, iterations: state.iteration, usage: state.usage });
}

export function onGuardrailsChecked(state: RunState, on: 'input' | 'output' | 'tool', results: GuardrailResult[], ctx: TransitionContext): void {
  const spec = (name: string) => state.agent.guardrails.find((g) => g.name === name);
  if (on === 'input' || on === 'output') {
    const tripped = results.find((r) => !r.pass);
    if (tripped) return trip(state, tripped.name, tripped.reason ?? 'tripped', on, ctx);
    state.guardrailsChecked[on] = true;
    return;
  }
  for (const result of results.filter((r) => !r.pass)) {
    const call = state.turn?.calls.find((c) => c.id === result.callId);
    if (!call || call.result) continue;
    const reason = `guardrail "${result.name}": ${result.reason ?? 'tripped'}`;
    if (spec(result.name)?.onTrip === 'reject_call') {
      rejectCall(state, call.id, reason);
      recordDecision(state, call, { decision: 'guardrail_reject', reason, via: 'guardrail' }, ctx);
    } else {
      return trip(state, result.name, result.reason ?? 'tripped', `tool ${call.name} (${call.id}) in iteration ${state.iteration}`, ctx);
    }
  }
  // Every call they looked at moves on to the policy.
  for (const call of state.turn?.calls ?? []) if (!call.result && call.stage.kind === 'guardrail') call.stage = { kind: 'policy' };
}

/** A verdict of the agent's approval handler for one call that would park. */
export interface HandlerVerdict {
  callId: string;
  verdict: 'allow' | 'reject' | 'ask';
  reason: string;
}

/**
 * The approval handler's verdicts: allow runs the call, reject refuses it, ask parks it for a person.
 * Each is recorded like a person's decision, `via: "handler"`. A handler that failed means "ask".
 */
export function onCallsJudged(state: RunState, verdicts: HandlerVerdict[], failure: string | undefined, ctx: TransitionContext): void {
  for (const call of state.turn?.calls.filter((c) => c.stage.kind === 'handler' && !c.result) ?? []) {
    const policyReason = call.stage.kind === 'handler' ? call.stage.reason : '';
    const verdict = verdicts.find((v) => v.callId === call.id) ?? { callId: call.id, verdict: 'ask' as const, reason: failure ? `the approval handler failed (${failure})` : 'the approval handler gave no verdict' };
    if (verdict.verdict === 'ask') {
      const reason = `${policyReason}; the approval handler asks a person: ${verdict.reason}`;
      call.stage = { kind: 'person', requestedAt: ctx.at, reason };
      recordCall(state, { iteration: state.turn!.iteration, callId: call.id, tool: call.name, input: call.input, outcome: 'waiting' });
      ctx.emit(state, 'approvalRequested', { callId: call.id, tool: call.name, input: call.input, requestedAt: ctx.at, iteration: state.turn!.iteration, reason, context: state.turn!.contextText }, call.id);
      continue;
    }
    recordDecision(state, call, { decision: verdict.verdict === 'allow' ? 'handler_allow' : 'handler_reject', reason: verdict.reason, via: 'handler' }, ctx);
    // The handler is not a person and names no rule that grants writes: the call runs read-only.
    if (verdict.verdict === 'allow') call.stage = { kind: 'run', permission: ruleAllowed(false), started: false };
    else rejectCall(state, call.id, `rejected by the approval handler: ${verdict.reason}`);
  }
}

