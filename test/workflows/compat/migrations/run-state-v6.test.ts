// Version 6 to 7 (issue 30): a recorded permission says whether the call may use the network.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateState } from '../../../../src/workflows/compat/migrations/migrate-state';
import { v6ToV7, type RunStateV6, type TurnCallV6 } from '../../../../src/workflows/compat/migrations/run-state-v6';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'fixtures');
const v6Fixture = () => JSON.parse(readFileSync(path.join(FIXTURES, 'run-state-v6.json'), 'utf8')) as RunStateV6;
const NOW = '2026-11-28T12:00:00.000Z';

const letRun = (id: string, permission?: TurnCallV6['stage']['permission']): TurnCallV6 => ({
  id,
  name: 'shell',
  input: { command: 'git fetch' },
  stage: { kind: 'run', ...(permission ? { permission } : {}), started: false },
});

describe('v6ToV7', () => {
  it('gives a person\'s permission the run\'s network, as version 6 did, and a rule\'s none, which no version-6 rule could grant', () => {
    const v6 = v6Fixture();
    const calls = [letRun('p', { by: 'person', writes: true }), letRun('r', { by: 'rule', writes: true }), letRun('old')];
    const state = migrateState({ ...v6, turn: { ...(v6.turn ?? { iteration: 1, contextText: '' }), calls } }, NOW);
    expect(state.schemaVersion).toBe(9);
    expect(state.turn!.calls.map((c) => c.stage)).toEqual([
      { kind: 'run', permission: { by: 'person', writes: true, network: true }, started: false },
      { kind: 'run', permission: { by: 'rule', writes: true, network: false }, started: false },
      // No permission recorded (an earlier release): permissionOf still reads the decisions.
      { kind: 'run', started: false },
    ]);
  });

  it('changes nothing else: the fixture read as version 7 equals itself with the new version', () => {
    const v6 = v6Fixture();
    expect(v6ToV7(v6)).toEqual({ ...v6, schemaVersion: 7 });
    expect(migrateState(v6, NOW)).toEqual(migrateState({ ...v6, schemaVersion: 8 }, NOW));
  });
});
