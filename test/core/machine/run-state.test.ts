// The run state is composed of slices, but the checkpoint stays one flat object with the fields in
// the order checkpoints have always had them. Spreading the slices would silently let one slice's
// field replace another's of the same name, and would reorder the fields; these tests catch both.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RunStateSchema } from '../../../src/core/machine/run-state';
import { CoreSliceSchema } from '../../../src/core/machine/state/core';
import { TurnSliceSchema } from '../../../src/core/machine/state/turn';
import { ApprovalsSliceSchema } from '../../../src/core/machine/state/approvals';
import { TeamSliceSchema } from '../../../src/core/machine/state/team';
import { ThreadSliceSchema } from '../../../src/core/machine/state/thread';
import { CompactionSliceSchema } from '../../../src/core/machine/state/compaction';
import { TelemetrySliceSchema } from '../../../src/core/machine/state/telemetry';
import { BudgetSliceSchema } from '../../../src/core/machine/state/budget';
import { CURRENT_STATE_VERSION } from '../../../src/workflows/compat/migrations/migrate-state';
import { runStateSchemaFile } from '../../support/run-state-json-schema';

const slices = {
  core: CoreSliceSchema,
  turn: TurnSliceSchema,
  approvals: ApprovalsSliceSchema,
  team: TeamSliceSchema,
  thread: ThreadSliceSchema,
  compaction: CompactionSliceSchema,
  telemetry: TelemetrySliceSchema,
  budget: BudgetSliceSchema,
};

// Composed in run-state.ts itself: the version is the whole checkpoint's.
const composedInRunState = ['schemaVersion'];

/** The field order of the committed JSON Schema of the current version: the order checkpoints have. */
const committedOrder = () =>
  Object.keys((JSON.parse(readFileSync(runStateSchemaFile(CURRENT_STATE_VERSION), 'utf8')) as { properties: Record<string, unknown> }).properties);

describe('RunStateSchema', () => {
  it('gives every field of the checkpoint to exactly one slice', () => {
    const owners = new Map<string, string[]>();
    for (const [slice, schema] of Object.entries(slices)) {
      for (const field of Object.keys(schema.shape)) owners.set(field, [...(owners.get(field) ?? []), slice]);
    }
    const shared = [...owners].filter(([, of]) => of.length > 1).map(([field, of]) => `${field} (${of.join(', ')})`);
    expect(shared, 'a field in two slices: the later spread replaces the earlier one').toEqual([]);
    const fields = Object.keys(RunStateSchema.shape).filter((field) => !composedInRunState.includes(field));
    expect(fields.filter((field) => !owners.has(field)), 'a checkpoint field no slice owns').toEqual([]);
    expect([...owners.keys()].filter((field) => !fields.includes(field)), 'a slice field missing from the checkpoint').toEqual([]);
  });

  it('lists the fields in the order of the committed checkpoint schema, whatever slice they are in', () => {
    expect(Object.keys(RunStateSchema.shape)).toEqual(committedOrder());
  });

  it('parses a checkpoint into the same flat object, its fields in that order', () => {
    const checkpoint = JSON.parse(readFileSync(`${__dirname}/../../fixtures/run-state-v${CURRENT_STATE_VERSION}.json`, 'utf8')) as Record<string, unknown>;
    const parsed = RunStateSchema.parse(checkpoint) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(committedOrder().filter((field) => field in parsed));
  });
});
