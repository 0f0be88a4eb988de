/**
 * Version 4 of the checkpoint (before issues 22 and 23). Version 5 added:
 * - permission modes: `mode`, and a parked call may carry a person's edit;
 * - Claude's own blocks: conversation messages may hold the API's thinking, redacted thinking and
 *   server tool blocks; usage may count thinking tokens and server tool requests; a tool call record
 *   may say the API ran it; the run may carry its own `model` and `effort`, the resolved agent its `model`.
 * All but `mode` only widened the shape, so a version-4 checkpoint needs nothing else.
 * Fixture: test/fixtures/run-state-v4.json. The rest has the version-5 shape and is checked by
 * RunStateSchema after the migration.
 */
export interface RunStateV4 {
  schemaVersion: 4;
  [field: string]: unknown;
}

/** Version 4 to 5: a run from before modes existed behaved as `default` does, and keeps doing so. */
export function v4ToV5(v4: RunStateV4): unknown {
  return { ...v4, schemaVersion: 5, mode: 'default' };
}
