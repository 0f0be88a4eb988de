import type { ApprovalDecision } from '../contract/approval-decision';
import type { ShellAnalysis } from '../contract/shell-analysis';
import { pendingCalls } from '../core/machine/decision-rules';
import { setup } from './activity-stubs';
import type { RunState } from '../core/machine/run-state';

/** What the worker said of the edited decisions: each one's analysis, or the first problem. */
export type EditChecks = { analyses: Record<string, ShellAnalysis | undefined> } | { refusal: string };

/**
 * Has the worker check every edited decision's arguments against its tool's schema, and analyse them
 * (shell), before anything is applied: a `checkEdits` activity, scheduled only when a decision carries
 * `arguments`, so histories without edits issue the commands they always did.
 */
export async function checkEditedArguments(state: RunState, decisions: readonly ApprovalDecision[], below: readonly { callId: string; tool: string }[] = []): Promise<EditChecks> {
  // Calls a sub-agent's run waits for (a batch forwards them) are checked against the same worker's tools.
  const calls = [...pendingCalls(state).map((c) => ({ callId: c.id, tool: c.name })), ...below];
  const edits = decisions.flatMap((d) => {
    const call = calls.find((c) => c.callId === d.callId);
    return d.arguments !== undefined && call ? [{ callId: d.callId, tool: call.tool, arguments: d.arguments }] : [];
  });
  if (edits.length === 0) return { analyses: {} };
  const checks = await setup.checkEdits({ agent: state.agent.name, workflowId: state.workflowId, edits });
  const failed = checks.find((c) => !c.ok);
  if (failed && !failed.ok) return { refusal: `the edit of ${failed.callId} is refused: ${failed.problem}; the call stays parked` };
  return { analyses: Object.fromEntries(checks.map((c) => [c.callId, c.ok ? c.analysis : undefined])) };
}
