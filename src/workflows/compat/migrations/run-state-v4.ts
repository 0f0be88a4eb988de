/**
 * Version 4 of the checkpoint (before permission modes): it had no `mode`, and a parked call could not
 * carry a person's edit. Fixture: test/fixtures/run-state-v4.json. Only what version 5 added matters
 * here; the rest has the version-5 shape and is checked by RunStateSchema after the migration.
 */
export interface RunStateV4 {
  schemaVersion: 4;
  [field: string]: unknown;
}

/** Version 4 to 5: a run from before modes existed behaved as `default` does, and keeps doing so. */
export function v4ToV5(v4: RunStateV4): unknown {
  return { ...v4, schemaVersion: 5, mode: 'default' };
}
