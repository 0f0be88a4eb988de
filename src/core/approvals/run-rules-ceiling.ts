import type { ToolApproval, ScopeAction } from '../../contract/approval-rules';
import type { PermissionMode } from '../../contract/permission-mode';
import { DEFAULT_SCOPE_POLICY } from './approval-policy';
import { modeLoosens } from './permission-mode';

/** How much a scope action lets run without a person: a run may only move a scope up this list. */
const STRICTNESS: Record<ScopeAction, number> = { allow: 0, ask: 1, reject: 2 };

/**
 * Why a run input's approval settings would let more run unasked than its agent does, or undefined
 * when they only tighten it. With an approver registry the agent's definition is a ceiling: anyone
 * with namespace access can start a run, and without this a run input (`toolApproval.alwaysApproved:
 * [{ tool: "shell", writes: true }]`) would run every call the agent's approvers were meant to sign.
 * A run may still ask more (`requiresApproval`), refuse more (`alwaysRejected`), make a scope stricter,
 * or start in a stricter mode. Every `alwaysApproved` rule of a run is refused, since it lets calls
 * run that nobody signs; put such a rule in the agent's definition, which the worker's operator owns.
 * Pure; the workflow asks it at start, so a raw Temporal client cannot get around it.
 */
export function runRulesCeilingProblem(
  run: { toolApproval?: ToolApproval; mode?: PermissionMode },
  agent: { name: string; approval?: ToolApproval; mode?: PermissionMode },
): string | undefined {
  const registry = 'this worker takes signed decisions (AGENT_APPROVERS_FILE), so a run may only tighten its agent\'s rules';
  const allowed = run.toolApproval?.alwaysApproved ?? [];
  if (allowed.length > 0) {
    return `toolApproval.alwaysApproved[0] (${JSON.stringify(allowed[0])}) would let calls of agent ${agent.name} run that nobody signs: ${registry}; remove it, or add the rule to the agent's definition (approval.alwaysApproved)`;
  }
  for (const [scope, action] of Object.entries(run.toolApproval?.scopes ?? {}) as [keyof typeof DEFAULT_SCOPE_POLICY, ScopeAction | undefined][]) {
    const ceiling = agent.approval?.scopes?.[scope] ?? DEFAULT_SCOPE_POLICY[scope];
    if (action !== undefined && STRICTNESS[action] < STRICTNESS[ceiling]) {
      return `toolApproval.scopes.${scope} "${action}" is looser than agent ${agent.name}'s "${ceiling}": ${registry}; remove it or make it "${ceiling}" or stricter`;
    }
  }
  const agentMode = agent.mode ?? 'default';
  if (run.mode !== undefined && modeLoosens(agentMode, run.mode)) {
    return `mode "${run.mode}" is looser than agent ${agent.name}'s "${agentMode}": ${registry}; start it in "${agentMode}" or a stricter mode`;
  }
  return undefined;
}
