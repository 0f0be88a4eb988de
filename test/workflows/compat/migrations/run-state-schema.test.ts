// The checkpoint cannot drift: `RunStateSchema` is built from schemas in many folders, so editing
// any of them changes what a worker writes and reads as a checkpoint. Checkpoints already written
// (in continue-as-new inputs, resumed runs) keep their old shape, so every change needs a new state
// version with a migration and a fixture. These tests fail when the schema moved without one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CURRENT_STATE_VERSION } from '../../../../src/workflows/compat/migrations/migrate-state';
import { RunStateSchema } from '../../../../src/core/machine/run-state';
import { RUN_STATE_SCHEMA_DIR, runStateJsonSchemaText, runStateSchemaFile } from '../../../support/run-state-json-schema';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'fixtures');
const v = CURRENT_STATE_VERSION;

const WHAT_TO_DO =
  `To change the checkpoint: bump the state version to ${v + 1} (CURRENT_STATE_VERSION in src/workflows/compat/migrations/migrate-state.ts ` +
  `and the schemaVersion literal in RunStateSchema, plus the places that write it), add a migration from version ${v} ` +
  `(src/workflows/compat/migrations/), capture test/fixtures/run-state-v${v + 1}.json with \`npx tsx scripts/capture-run-state.ts test/fixtures/run-state-v${v + 1}.json\`, ` +
  `and write test/fixtures/run-state-schema/v${v + 1}.json with \`npx tsx scripts/run-state-schema.ts\`. ` +
  `Never rewrite the file of a released version: checkpoints written as version ${v} have the shape it describes.`;

describe('the checkpoint schema', () => {
  it('is the JSON Schema committed for the current state version', () => {
    const file = runStateSchemaFile(v);
    expect(existsSync(file), `${file} is missing. ${WHAT_TO_DO}`).toBe(true);
    // Compared as text, so the failure shows the diff; the file is written by the same function.
    expect(runStateJsonSchemaText(), `RunStateSchema is no longer the schema of checkpoint version ${v} (${file}). ${WHAT_TO_DO}`).toBe(readFileSync(file, 'utf8'));
  });

  it('says the same version as CURRENT_STATE_VERSION, and no schema file is newer', () => {
    expect(RunStateSchema.shape.schemaVersion.value, 'the schemaVersion literal in RunStateSchema and CURRENT_STATE_VERSION must be bumped together').toBe(v);
    const versions = readdirSync(RUN_STATE_SCHEMA_DIR).map((name) => Number(/^v(\d+)\.json$/.exec(name)?.[1]));
    expect(Math.max(...versions), `a schema file is newer than CURRENT_STATE_VERSION ${v}`).toBe(v);
  });

  it(`has a checkpoint fixture of version ${v} that the schema reads field for field`, () => {
    const file = path.join(FIXTURES, `run-state-v${v}.json`);
    expect(existsSync(file), `${file} is missing. ${WHAT_TO_DO}`).toBe(true);
    const checkpoint = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(checkpoint.schemaVersion).toBe(v);
    // Parsing drops fields the schema does not know and fills defaults: equal means none of either,
    // so a renamed or removed field fails here even when the schema file was regenerated.
    expect(RunStateSchema.parse(checkpoint), `${file} does not fit RunStateSchema as it is. ${WHAT_TO_DO}`).toEqual(checkpoint);
  });
});
