/**
 * Version 8 of the checkpoint (issue 32). Version 9 (issue 34) adds the spend budget: the `budget`
 * field (limits, the model's price, the worst case of one call, and since when the run is parked by
 * it), the phase `waiting_budget` and the outcome `budget_exhausted`. Fixture: test/fixtures/run-state-v8.json.
 */
export interface RunStateV8 {
  schemaVersion: 8;
  [field: string]: unknown;
}

/** Version 8 to 9: nothing to rewrite. A version-8 run had no budget, and `budget` is optional. */
export function v8ToV9(v8: RunStateV8): unknown {
  return { ...v8, schemaVersion: 9 };
}
