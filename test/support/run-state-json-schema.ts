// The checkpoint's shape as JSON Schema, one committed file per state version, so a change to
// `RunStateSchema` (or to any schema it is built from) shows up as a diff against the file of the
// version it claims to be. Shared by the drift test and the script that writes the files.
import * as path from 'node:path';
import { z } from 'zod';
import { RunStateSchema } from '../../src/core/machine/run-state';

export const RUN_STATE_SCHEMA_DIR = path.join(__dirname, '..', 'fixtures', 'run-state-schema');

export const runStateSchemaFile = (version: number) => path.join(RUN_STATE_SCHEMA_DIR, `v${version}.json`);

/**
 * The JSON Schema of what a worker writes as a checkpoint ('output': defaulted fields are required
 * and carry their default), so a new `.default()`, a changed default or a renamed field all show.
 */
export function runStateJsonSchema(): unknown {
  return z.toJSONSchema(RunStateSchema, { io: 'output' });
}

/** The file's text: stable (zod emits properties in declaration order) and diffable. */
export const runStateJsonSchemaText = () => `${JSON.stringify(runStateJsonSchema(), null, 2)}\n`;
