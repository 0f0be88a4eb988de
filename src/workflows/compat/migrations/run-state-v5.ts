import type { ToolPermission } from '../../../contract/tool-permission';
import type { CallStage } from '../../../core/machine/run-state';

/**
 * Version 5 of the checkpoint (issues 22 and 23). A call of the current turn said where it stood with a
 * `verdict` and three flags (`started`, `guarded`, `judged`); version 6 says it with one `stage`.
 * Fixture: test/fixtures/run-state-v5.json. The rest has the version-6 shape and is checked by
 * RunStateSchema after the migration.
 */
export type CallVerdictV5 =
  | { kind: 'new' }
  | { kind: 'control' }
  | { kind: 'run'; permission?: ToolPermission }
  | { kind: 'pending'; requestedAt: string; reason: string }
  | { kind: 'judging'; reason: string }
  | { kind: 'reject'; reason: string };

export interface TurnCallV5 {
  id: string;
  name: string;
  input: unknown;
  verdict: CallVerdictV5;
  result?: unknown;
  started?: boolean;
  guarded?: boolean;
  judged?: boolean;
  [field: string]: unknown;
}

export interface RunStateV5 {
  schemaVersion: 5;
  turn?: { calls: TurnCallV5[]; [field: string]: unknown };
  [field: string]: unknown;
}

/**
 * The stage a version-5 call is at. `started` only counts while the call has no result (a finished
 * call was marked back; one started with no result is still running, or its outcome is unknown when a
 * resumed run reads it). `guarded` decides whether a new call still waits for the tool guardrails.
 * `judged` is dropped: only a call past `new` could have it (the handler moves the call on), except
 * calls migrated from version 2, which are also `guarded` and whose agents had no handler. `started`
 * on a call waiting for the handler or a person, or refused, cannot happen and is dropped too.
 */
export function stageOfV5(call: TurnCallV5): CallStage {
  const started = call.started === true && call.result === undefined;
  const v = call.verdict;
  switch (v.kind) {
    case 'new':
      return call.guarded === true ? { kind: 'policy' } : { kind: 'guardrail' };
    case 'control':
      return { kind: 'control', started };
    case 'run':
      return { kind: 'run', ...(v.permission ? { permission: v.permission } : {}), started };
    case 'pending':
      return { kind: 'person', requestedAt: v.requestedAt, reason: v.reason };
    case 'judging':
      return { kind: 'handler', reason: v.reason };
    case 'reject':
      return { kind: 'refused', reason: v.reason };
  }
}

/** Version 5 to 6: each call's verdict and flags become its stage; nothing else changed. */
export function v5ToV6(v5: RunStateV5): unknown {
  const turn = v5.turn && {
    ...v5.turn,
    calls: v5.turn.calls.map((call) => {
      const { verdict: _verdict, started: _started, guarded: _guarded, judged: _judged, ...rest } = call;
      return { ...rest, stage: stageOfV5(call) };
    }),
  };
  return { ...v5, schemaVersion: 6, turn };
}
