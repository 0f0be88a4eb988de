/**
 * Version 7 of the checkpoint (issue 30). Version 8 (issue 32) lets a remembered shell choice name the
 * files its line wrote (`redirects` on its command match), so an "always" covers a later line only if
 * that line writes no other file. Fixture: test/fixtures/run-state-v7.json.
 */
export interface RunStateV7 {
  schemaVersion: 7;
  [field: string]: unknown;
}

/**
 * Version 7 to 8: nothing to rewrite. A remembered choice from version 7 has no `redirects` and keeps
 * the reach it had (any redirect target), as its maker gave it; new choices record theirs.
 */
export function v7ToV8(v7: RunStateV7): unknown {
  return { ...v7, schemaVersion: 8 };
}
