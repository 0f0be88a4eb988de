/**
 * Version 8 of the checkpoint (issue 32's redirects). Version 9 adds two things: the signatures the
 * run accepted, kept until they expire (`acceptedSignatures`, issue 32, must-have 6: a signed payload
 * is accepted once), and the spend budget (issue 34: the `budget` field, the phase `waiting_budget`
 * and the outcome `budget_exhausted`). Fixture: test/fixtures/run-state-v8.json.
 */
export interface RunStateV8 {
  schemaVersion: 8;
  [field: string]: unknown;
}

/**
 * Version 8 to 9: `acceptedSignatures` starts empty. A link from version 8 did not record the
 * signatures it accepted, so those it applied are still refused only as they always were (a decided
 * call is decided; an expired signature fails), not by this list. A version-8 run had no budget, and
 * `budget` is optional.
 */
export function v8ToV9(v8: RunStateV8): unknown {
  return { ...v8, schemaVersion: 9, acceptedSignatures: [] };
}
