// Version 8 to 9 (issue 34): the spend budget. A version-8 run had none, so nothing is rewritten and
// the migrated state has no `budget` (it never parks by one).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateState } from '../../../../src/workflows/compat/migrations/migrate-state';
import { v8ToV9, type RunStateV8 } from '../../../../src/workflows/compat/migrations/run-state-v8';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'fixtures');
const v8Fixture = () => JSON.parse(readFileSync(path.join(FIXTURES, 'run-state-v8.json'), 'utf8')) as RunStateV8;
const NOW = '2026-11-28T12:00:00.000Z';

describe('v8ToV9', () => {
  it('changes nothing but the version: the fixture read as version 9 equals itself with the new version, without a budget', () => {
    const v8 = v8Fixture();
    expect(v8ToV9(v8)).toEqual({ ...v8, schemaVersion: 9 });
    const state = migrateState(v8, NOW);
    expect(state.schemaVersion).toBe(9);
    expect(state.budget).toBeUndefined();
    expect(state).toEqual(migrateState({ ...v8, schemaVersion: 9 }, NOW));
  });
});
