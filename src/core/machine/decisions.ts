import { evaluatePolicy, type PolicyVerdict } from '../approvals/approval-policy';
import { verdictUnderMode, PLAN_MODE_REFUSAL } from '../approvals/permission-mode';
import type { PermissionMode } from '../../contract/permission-mode';
import type { Decision } from '../../contract/decision';
import { pushBounded, StateLimits, type RunState, type TurnCall } from './run-state';
import type { TransitionContext } from './transition-context';

/**
 * The two things every stage of the approval pipeline (guardrail → policy → handler → person →
 * timeout) shares: what the policy says about a call, and how a decision is recorded. One place each,
 * so a stage cannot judge with other inputs or record a decision the audit log would not accept.
 */

/** Tools whose calls are shell command lines; their rules compare parsed commands. */
export const COMMAND_ARGUMENT = 'command';

/**
 * The approval policy's verdict on one call, with the run's rules, the agent's rules, the people's
 * remembered choices and the worker's command patterns. A call of a tool the agent does not have is
 * refused: nothing says what it may do. `mode` is the run's permission mode unless the caller judges
 * a call a person is deciding anyway (an edit), where only the rules count.
 */
export function policyFor(state: RunState, call: TurnCall, mode: PermissionMode = state.mode, contained = true): PolicyVerdict {
  const tool = state.agent.tools[call.name];
  if (tool === undefined) return { action: 'reject', reason: 'unknown tool' };
  const isCommand = tool.subjectArgument === COMMAND_ARGUMENT;
  const verdict = evaluatePolicy({
    tool: call.name,
    scope: tool.scope,
    input: call.input,
    analysis: call.analysis,
    isCommand,
    run: state.input.toolApproval,
    agent: state.agent.approval,
    preferences: state.preferences,
    patterns: state.agent.commandPatterns,
    contained,
  });
  return verdictUnderMode(mode, verdict, { name: call.name, scope: tool.scope, isCommand }, contained);
}

/** Plan mode refuses sub-agents too: a child run could write what this one may not. */
export function planModeRefuses(state: RunState, call: TurnCall): string | undefined {
  return state.mode === 'plan' && call.name === 'delegate_task' ? PLAN_MODE_REFUSAL : undefined;
}

/** What a stage says; the call, its tool and the time are filled in by `recordDecision`. */
export type DecisionFields = Omit<Decision, 'callId' | 'tool' | 'decidedAt'>;

/** Decisions the machine made itself carry the arguments it judged, as `approvalDecided` always has for them. */
const MACHINE_MADE = new Set<Decision['via']>(['policy', 'handler', 'guardrail']);

/**
 * Records a decision on a call in the run's decisions and emits it as `approvalDecided` (which the
 * run driver writes to the audit log). It does not change the call: the stage that decided does.
 */
export function recordDecision(state: RunState, call: TurnCall, fields: DecisionFields, ctx: TransitionContext): Decision {
  const { decision, reason, approver, verified, via } = fields;
  // Absent rather than undefined, so the record reads the same in the checkpoint, the event and the status.
  const record: Decision = {
    callId: call.id,
    tool: call.name,
    decision,
    ...(reason === undefined ? {} : { reason }),
    ...(approver === undefined ? {} : { approver }),
    ...(verified === undefined ? {} : { verified }),
    decidedAt: ctx.at,
    via,
  };
  pushBounded(state.decisions, record, StateLimits.decisions);
  // An edited call's record carries both: what the model asked for and what the person let run.
  const edited = call.edited ? { edited: { original: call.edited.original, arguments: call.input } } : {};
  ctx.emit(state, 'approvalDecided', MACHINE_MADE.has(via) ? { ...record, arguments: call.input, ...edited } : { ...record, ...edited }, call.id);
  return record;
}
