import type { WorkflowHandle } from '@temporalio/client';
import type { DecisionOutcome } from '../contract/approval-decision';
import { setModeUpdate } from '../contract/agent-run-api';
import type { SetMode } from '../contract/permission-mode';
import { executeUpdate } from './approval-helpers';

/** Switches a run's permission mode (update `setMode`); a refusal becomes a DecisionRefusedError with the run's reason. */
export function switchMode(handle: WorkflowHandle, payload: SetMode): Promise<DecisionOutcome> {
  return executeUpdate(handle, 'the mode switch', () => handle.executeUpdate(setModeUpdate, { args: [payload] }));
}
