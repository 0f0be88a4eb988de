import { ruleAllowed } from '../../contract/tool-permission';
import type { RunState } from './run-state';
import { planModeRefuses, policyFor, recordDecision } from './decisions';
import { errorResult, recordCall, rejectCall, toBlock } from './call-records';
import { controlToolNamesOf } from './control-calls';
import { needsToolGuardrails } from './on-guardrails';
import { screenTeamCalls } from './on-team';
import type { TransitionContext } from './transition-context';
import type { AllowedBy } from '../approvals/approval-policy';

/** How an allow decision's line names what decided. */
const DECIDED_BY: Record<AllowedBy, string> = { rule: 'a rule', preference: 'a remembered choice', mode: 'the mode' };

/**
 * Applies the approval policy to every call of the turn that has not been judged yet: control tools
 * are the workflow's own; unknown tools get an error result at once; the rest run, are rejected, or
 * wait for a person.
 */
export function classifyTurn(state: RunState, ctx: TransitionContext): void {
  const turn = state.turn;
  if (!turn) return;
  const controlNames = controlToolNamesOf(state.agent);
  for (const call of turn.calls) {
    if (call.stage.kind !== 'guardrail' && call.stage.kind !== 'policy') continue;
    const planRefusal = planModeRefuses(state, call);
    if (planRefusal) {
      recordDecision(state, call, { decision: 'policy_reject', reason: planRefusal, via: 'policy' }, ctx);
      rejectCall(state, call.id, planRefusal);
      continue;
    }
    if (controlNames.includes(call.name)) {
      call.stage = { kind: 'control', started: false };
      continue;
    }
    // The agent's tool guardrails look at a call before the approval policy does.
    if (needsToolGuardrails(state, call)) continue;
    const tool = state.agent.tools[call.name];
    if (tool === undefined) {
      const known = [...Object.keys(state.agent.tools), ...controlNames].join(', ');
      call.stage = { kind: 'refused', reason: 'unknown tool' };
      call.result = toBlock(call.id, errorResult(`Unknown tool "${call.name}". Available tools: ${known}.`));
      recordCall(state, { iteration: turn.iteration, callId: call.id, tool: call.name, input: call.input, outcome: 'error' });
      continue;
    }
    const verdict = policyFor(state, call, state.mode, ctx.containedCalls !== false);
    if (verdict.action === 'allow') {
      // No person saw it: it writes, or uses the network, only if the rule or "always" that let it through says so.
      call.stage = { kind: 'run', permission: ruleAllowed(verdict.writes, verdict.network), started: false };
      // A call that may change something is on the record as decided, and by what, before it runs.
      if (ctx.allowedCallLines === true && (tool.scope !== 'read' || verdict.writes)) {
        recordDecision(state, call, { decision: 'policy_allow', reason: `decided by ${DECIDED_BY[verdict.by ?? 'rule']}: ${verdict.reason}`, via: 'policy' }, ctx);
      }
    } else if (verdict.action === 'reject') {
      // Recorded and emitted, so the audit log records calls the policy refused, not only the ones that ran.
      recordDecision(state, call, { decision: 'policy_reject', reason: verdict.reason, via: 'policy' }, ctx);
      rejectCall(state, call.id, verdict.reason);
    } else if (state.agent.approvalHandler) {
      // The agent's approval handler decides first; only its "ask" parks the call.
      call.stage = { kind: 'handler', reason: verdict.reason };
    } else {
      call.stage = { kind: 'person', requestedAt: ctx.at, reason: verdict.reason };
      recordCall(state, { iteration: turn.iteration, callId: call.id, tool: call.name, input: call.input, outcome: 'waiting' });
      ctx.emit(
        state,
        'approvalRequested',
        { callId: call.id, tool: call.name, input: call.input, requestedAt: ctx.at, iteration: turn.iteration, reason: verdict.reason, context: turn.contextText },
        call.id,
      );
    }
  }
  screenTeamCalls(state);
}
