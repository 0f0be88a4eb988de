/**
 * Version 4 of the checkpoint (before issue 22). Version 5 only widened it: conversation messages may
 * hold the API's own blocks (thinking, redacted thinking, server tool calls and results), usage may
 * count thinking tokens and server tool requests, a tool call record may say the API ran it, the run
 * may carry its own `model` and `effort`, and the resolved agent its `model`. Every version-4
 * checkpoint is therefore a version-5 one as it is; only the version number changes.
 * Fixture: test/fixtures/run-state-v4.json.
 */
export interface RunStateV4 {
  schemaVersion: 4;
  [field: string]: unknown;
}

export function v4ToV5(v4: RunStateV4): unknown {
  return { ...v4, schemaVersion: 5 };
}
