// Version 5 to 6: every verdict and flag combination a version-5 worker could write becomes one stage
// (no server needed; the end-to-end resume of a parked version-5 run is in migrate-state.test.ts).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateState } from '../../../../src/workflows/compat/migrations/migrate-state';
import { stageOfV5, v5ToV6, type CallVerdictV5, type RunStateV5, type TurnCallV5 } from '../../../../src/workflows/compat/migrations/run-state-v5';
import { pendingApprovalsOf } from '../../../../src/core/machine/run-status';
import { RunStateSchema, type CallStage } from '../../../../src/core/machine/run-state';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'fixtures');
const NOW = '2026-11-23T12:00:00.000Z';
const v5Fixture = () => JSON.parse(readFileSync(path.join(FIXTURES, 'run-state-v5.json'), 'utf8')) as RunStateV5;
const result = { type: 'tool_result', tool_use_id: 'c', content: 'done' };
const permission = { by: 'person' as const, writes: true };

const callV5 = (verdict: CallVerdictV5, flags: Partial<Pick<TurnCallV5, 'started' | 'guarded' | 'judged' | 'result'>> = {}): TurnCallV5 => ({
  id: 'c',
  name: 'write_file',
  input: {},
  verdict,
  started: false,
  guarded: false,
  judged: false,
  ...flags,
});

describe('stageOfV5', () => {
  const cases: [string, TurnCallV5, CallStage][] = [
    ['a new call the tool guardrails have not seen', callV5({ kind: 'new' }), { kind: 'guardrail' }],
    ['a new call the tool guardrails passed', callV5({ kind: 'new' }, { guarded: true }), { kind: 'policy' }],
    ['a new call from a version-2 checkpoint (guarded and judged)', callV5({ kind: 'new' }, { guarded: true, judged: true }), { kind: 'policy' }],
    ['a control tool', callV5({ kind: 'control' }, { guarded: true }), { kind: 'control', started: false }],
    ['a delegation whose sub-agent runs', callV5({ kind: 'control' }, { started: true }), { kind: 'control', started: true }],
    ['a delegation whose sub-agent ended', callV5({ kind: 'control' }, { result }), { kind: 'control', started: false }],
    ['a call let run, not started', callV5({ kind: 'run', permission }), { kind: 'run', permission, started: false }],
    ['a call started with no result (still running, or its outcome unknown)', callV5({ kind: 'run', permission }, { started: true }), { kind: 'run', permission, started: true }],
    ['a call started that has its result (a flag left set)', callV5({ kind: 'run', permission }, { started: true, result }), { kind: 'run', permission, started: false }],
    ['a call let run before verdicts carried a permission', callV5({ kind: 'run' }), { kind: 'run', started: false }],
    ['a call parked for a person', callV5({ kind: 'pending', requestedAt: NOW, reason: 'write tools: ask' }, { guarded: true }), { kind: 'person', requestedAt: NOW, reason: 'write tools: ask' }],
    ['a call the handler decides', callV5({ kind: 'judging', reason: 'write tools: ask' }), { kind: 'handler', reason: 'write tools: ask' }],
    ['a call the handler judged and parked', callV5({ kind: 'pending', requestedAt: NOW, reason: 'r' }, { judged: true }), { kind: 'person', requestedAt: NOW, reason: 'r' }],
    ['a refused call', callV5({ kind: 'reject', reason: 'unknown tool' }, { result }), { kind: 'refused', reason: 'unknown tool' }],
  ];

  it.each(cases)('maps %s', (_name, call, stage) => {
    expect(stageOfV5(call)).toEqual(stage);
  });
});

describe('v5ToV6', () => {
  it('replaces each call\'s verdict and flags with its stage and keeps every other field', () => {
    const v5 = v5Fixture();
    const v6 = v5ToV6(v5) as Record<string, unknown>;
    expect(v6.schemaVersion).toBe(6);
    const [before] = v5.turn!.calls;
    const [after] = (v6.turn as { calls: Record<string, unknown>[] }).calls;
    const { verdict: _v, started: _s, guarded: _g, judged: _j, ...kept } = before!;
    expect(after).toEqual({ ...kept, stage: stageOfV5(before!) });
    expect({ ...v6, schemaVersion: 5, turn: undefined }).toEqual({ ...v5, turn: undefined });
  });

  it('keeps a parked version-5 call parked, with its request time and reason, for the status', () => {
    const v5 = v5Fixture();
    const parked = v5.turn!.calls[0]!.verdict as Extract<CallVerdictV5, { kind: 'pending' }>;
    const state = migrateState(v5, NOW);
    expect(RunStateSchema.safeParse(state).success).toBe(true);
    expect(pendingApprovalsOf(state)).toEqual([expect.objectContaining({ callId: v5.turn!.calls[0]!.id, requestedAt: parked.requestedAt, reason: parked.reason })]);
  });

  it('leaves a checkpoint without a turn without one', () => {
    expect((v5ToV6({ ...v5Fixture(), turn: undefined }) as { turn?: unknown }).turn).toBeUndefined();
  });
});
