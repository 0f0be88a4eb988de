import type { PermissionMode } from '../../contract/permission-mode';
import type { ToolScope } from '../../contract/tool-scope';
import type { PolicyVerdict } from './approval-policy';

/** What the model reads when plan mode refuses a call: why, and what to do instead. */
export const PLAN_MODE_REFUSAL =
  'this run is in plan mode, where only read tools run: change nothing yet, read what you need and describe the changes you would make; a person switches the run to another mode when the plan is agreed';

/** What the model reads when dontAsk mode refuses a call a person would have had to approve. */
export const dontAskRefusal = (reason: string) =>
  `this run is in dontAsk mode (unattended, nobody to ask) and this call would need a person's approval (${reason}); find a way that needs no approval, or finish and say what is left`;

/**
 * The policy's verdict on one call under the run's permission mode. A reject (a reject rule, a
 * remembered "never", a protected path) always stands: no mode can loosen it. `plan` refuses every
 * call that is not a read; `acceptEdits` lets write tools run unasked (they are confined to the
 * workspace) while commands keep their verdict; `dontAsk` turns every "ask" into a refusal. Pure.
 */
export function verdictUnderMode(mode: PermissionMode, verdict: PolicyVerdict, tool: { scope: ToolScope; isCommand: boolean }): PolicyVerdict {
  if (verdict.action === 'reject' || mode === 'default') return verdict;
  if (mode === 'plan') return tool.scope === 'read' ? verdict : { action: 'reject', reason: PLAN_MODE_REFUSAL };
  if (mode === 'acceptEdits') {
    if (verdict.action === 'ask' && tool.scope === 'write' && !tool.isCommand) return { action: 'allow', reason: 'acceptEdits mode: write tools inside the workspace run without asking', writes: true };
    return verdict;
  }
  return verdict.action === 'ask' ? { action: 'reject', reason: dontAskRefusal(verdict.reason) } : verdict;
}

/** From the mode that lets least run unasked to the one that lets most run. */
const LOOSENESS: Record<PermissionMode, number> = { plan: 0, dontAsk: 1, default: 2, acceptEdits: 3 };

/**
 * True when switching `from` → `to` lets more run without a person: to `acceptEdits` from any other
 * mode, to `default` from `plan` or `dontAsk`, to `dontAsk` from `plan`. A run that takes signed
 * decisions only refuses such a switch, because a mode switch carries no signature: an insider with
 * namespace access could otherwise name an approver and loosen the run without their key. Pure.
 */
export function modeLoosens(from: PermissionMode, to: PermissionMode): boolean {
  return LOOSENESS[to] > LOOSENESS[from];
}
