import type { ToolPermission } from '../../../contract/tool-permission';

/**
 * Version 6 of the checkpoint (issues 24 to 29). A call's permission said who let it run and whether
 * it may write; version 7 (issue 30) also says whether it may use the network, and remembered choices
 * may carry `network`. Fixture: test/fixtures/run-state-v6.json. The rest has the version-7 shape and
 * is checked by RunStateSchema after the migration.
 */
export interface TurnCallV6 {
  stage: { kind: string; permission?: ToolPermission; [field: string]: unknown };
  [field: string]: unknown;
}

export interface RunStateV6 {
  schemaVersion: 6;
  turn?: { calls: TurnCallV6[]; [field: string]: unknown };
  [field: string]: unknown;
}

/**
 * Version 6 to 7: each recorded permission says whether the call may use the network, as version 6
 * treated it for a person (the run's network) and as version 7 treats a rule (none: no version-6
 * rule could grant it). Remembered choices without `network` keep meaning "no network".
 */
export function v6ToV7(v6: RunStateV6): unknown {
  const turn = v6.turn && {
    ...v6.turn,
    calls: v6.turn.calls.map((call) => {
      const permission = call.stage.permission;
      if (permission === undefined || permission.network !== undefined) return call;
      return { ...call, stage: { ...call.stage, permission: { ...permission, network: permission.by === 'person' } } };
    }),
  };
  return { ...v6, schemaVersion: 7, turn };
}
