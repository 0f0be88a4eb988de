// Writes the checkpoint's JSON Schema for the current state version.
//
//   npx tsx scripts/run-state-schema.ts            # writes test/fixtures/run-state-schema/v<N>.json
//   npx tsx scripts/run-state-schema.ts --force    # overwrites v<N>.json even though it differs
//
// test/workflows/compat/migrations/run-state-schema.test.ts fails when `RunStateSchema` no longer matches
// the file of its version. The fix is a new version, not a rewritten file: checkpoints already
// written as v<N> have the old shape. So this script refuses to overwrite a file that differs,
// unless --force (for a version not yet released).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { CURRENT_STATE_VERSION } from '../src/workflows/compat/migrations/migrate-state';
import { RUN_STATE_SCHEMA_DIR, runStateJsonSchemaText, runStateSchemaFile } from '../test/support/run-state-json-schema';

const force = process.argv.includes('--force');
const file = runStateSchemaFile(CURRENT_STATE_VERSION);
const text = runStateJsonSchemaText();
mkdirSync(RUN_STATE_SCHEMA_DIR, { recursive: true });
if (existsSync(file) && readFileSync(file, 'utf8') !== text && !force) {
  console.error(
    `${file} exists and differs from RunStateSchema: checkpoints written as version ${CURRENT_STATE_VERSION} have the shape in the file.\n` +
      `Bump the state version (CURRENT_STATE_VERSION and the schemaVersion literal), add a migration from ${CURRENT_STATE_VERSION} and a ` +
      `fixture test/fixtures/run-state-v${CURRENT_STATE_VERSION + 1}.json, then run this script again. ` +
      `Use --force only if version ${CURRENT_STATE_VERSION} was never released.`,
  );
  process.exit(1);
}
writeFileSync(file, text);
console.log(`wrote ${file}`);
