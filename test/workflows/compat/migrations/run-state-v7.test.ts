// Version 7 to 8 (issue 32): a remembered shell choice may name the files its line wrote; nothing of
// version 7 is rewritten, so its remembered choices keep the reach their makers gave them.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateState } from '../../../../src/workflows/compat/migrations/migrate-state';
import { v7ToV8, type RunStateV7 } from '../../../../src/workflows/compat/migrations/run-state-v7';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'fixtures');
const v7Fixture = () => JSON.parse(readFileSync(path.join(FIXTURES, 'run-state-v7.json'), 'utf8')) as RunStateV7;
const NOW = '2026-11-28T12:00:00.000Z';

describe('v7ToV8', () => {
  it('changes nothing but the version: the fixture read as version 8 equals itself with the new version', () => {
    const v7 = v7Fixture();
    expect(v7ToV8(v7)).toEqual({ ...v7, schemaVersion: 8 });
    const state = migrateState(v7, NOW);
    expect(state.schemaVersion).toBe(9);
    expect(state).toEqual(migrateState({ ...v7, schemaVersion: 9 }, NOW));
  });
});
