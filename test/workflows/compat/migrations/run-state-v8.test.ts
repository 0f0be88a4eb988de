// Version 8 to 9: the checkpoint gains `acceptedSignatures`, empty (issue 32, must-have 6), and may
// carry a spend budget (issue 34); a version-8 run had none, so nothing of version 8 is rewritten.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateState } from '../../../../src/workflows/compat/migrations/migrate-state';
import { v8ToV9, type RunStateV8 } from '../../../../src/workflows/compat/migrations/run-state-v8';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'fixtures');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
const NOW = '2026-11-28T12:00:00.000Z';

describe('v8ToV9', () => {
  it('adds an empty acceptedSignatures, no budget, and changes nothing else', () => {
    const v8 = fixture('run-state-v8.json') as RunStateV8;
    expect(v8.acceptedSignatures).toBeUndefined();
    expect(v8ToV9(v8)).toEqual({ ...v8, schemaVersion: 9, acceptedSignatures: [] });
    const state = migrateState(v8, NOW);
    expect(state.schemaVersion).toBe(9);
    expect(state.acceptedSignatures).toEqual([]);
    expect(state.budget).toBeUndefined();
    expect(state).toEqual(migrateState({ ...v8, schemaVersion: 9, acceptedSignatures: [] }, NOW));
  });

  it('reads the version-9 fixture as it is', () => {
    const v9 = fixture('run-state-v9.json');
    expect(v9.schemaVersion).toBe(9);
    expect(migrateState(v9, NOW)).toEqual(v9);
  });
});
