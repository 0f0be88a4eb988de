import type { PermissionMode } from '../../contract/permission-mode';
import type { ToolScope } from '../../contract/tool-scope';
import type { PolicyVerdict } from './approval-policy';
import { WORKSPACE_FILE_TOOLS } from './protected-paths';

/** What the model reads when plan mode refuses a call: why, and what to do instead. */
export const PLAN_MODE_REFUSAL =
  'this run is in plan mode, where only read tools run: change nothing yet, read what you need and describe the changes you would make; a person switches the run to another mode when the plan is agreed';

/** What the model reads when dontAsk mode refuses a call a person would have had to approve. */
export const dontAskRefusal = (reason: string) =>
  `this run is in dontAsk mode (unattended, nobody to ask) and this call would need a person's approval (${reason}); find a way that needs no approval, or finish and say what is left`;

/**
 * The policy's verdict on one call under the run's permission mode. A reject (a reject rule, a
 * remembered "never") always stands: no mode can loosen it, and no mode lets a call run unasked that
 * only a person may decide (`personOnly`: a write to a protected path). `plan` refuses every call that
 * is not a read; `acceptEdits` lets the built-in file tools (WORKSPACE_FILE_TOOLS, which the worker
 * confines to the workspace) write without asking, while commands, MCP tools and every other tool
 * keep their verdict (nothing the worker controls keeps them inside the workspace); `dontAsk` turns
 * every "ask" into a refusal. Pure. `contained` false: a history from before issue 30 replays (patch
 * `contained-calls`), whose acceptEdits let every write tool that is not a command run unasked.
 */
export function verdictUnderMode(mode: PermissionMode, verdict: PolicyVerdict, tool: { name: string; scope: ToolScope; isCommand: boolean }, contained = true): PolicyVerdict {
  if (verdict.action === 'reject' || mode === 'default') return verdict;
  if (mode === 'plan') return tool.scope === 'read' ? verdict : { action: 'reject', reason: PLAN_MODE_REFUSAL };
  if (mode === 'acceptEdits') {
    const fileTool = (!contained || Object.hasOwn(WORKSPACE_FILE_TOOLS, tool.name)) && tool.scope === 'write' && !tool.isCommand;
    if (verdict.action === 'ask' && verdict.personOnly !== true && fileTool) {
      return { action: 'allow', reason: 'acceptEdits mode: the built-in file tools write inside the workspace without asking', writes: true, network: false, by: 'mode' };
    }
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
