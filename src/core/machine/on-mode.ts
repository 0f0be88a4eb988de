import type { PermissionMode } from '../../contract/permission-mode';
import type { RunState } from './run-state';
import type { TransitionContext } from './transition-context';

/**
 * Switches the run's permission mode for the rest of the run. Calls judged from now on follow it;
 * calls already parked stay parked for a person (a switch is not a decision on them). The switch is
 * emitted as `modeChanged`, which the run driver writes to the audit log.
 */
export function onModeSet(state: RunState, mode: PermissionMode, ctx: TransitionContext, by?: string, reason?: string): void {
  const from = state.mode;
  state.mode = mode;
  ctx.emit(state, 'modeChanged', { from, to: mode, ...(by === undefined ? {} : { by }), ...(reason === undefined ? {} : { reason }) }, `mode-${ctx.now}`);
}
