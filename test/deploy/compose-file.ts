import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import draft07MetaSchema from 'ajv/dist/refs/json-schema-draft-07.json';

// Reading the compose file lives with `npm run cluster`, which runs the services it describes; the
// tests add validation against the Compose Specification schema.
export * from '../../scripts/cluster/compose-file';

/**
 * The Compose Specification schema as shipped in the `dclint` package (a copy of compose-spec's
 * schema/compose-spec.json), so validation works offline. The package exports no path to it, so it
 * is located next to the package's package.json.
 */
function loadComposeSpecSchema(): Record<string, unknown> {
  const packageDir = path.dirname(require.resolve('dclint/package.json'));
  return JSON.parse(readFileSync(path.join(packageDir, 'schemas', 'compose.schema.json'), 'utf8'));
}

export type ComposeValidator = (document: unknown) => ErrorObject[];

export function createComposeValidator(): ComposeValidator {
  // The schema is draft-07 but names its meta-schema with an https URI, which Ajv does not alias.
  // strictTypes is off because the schema uses union types (e.g. ["string", "number"]) throughout.
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  ajv.addMetaSchema({ ...draft07MetaSchema, $id: 'https://json-schema.org/draft-07/schema' });
  const validate = ajv.compile(loadComposeSpecSchema());
  return (document) => (validate(document) ? [] : [...(validate.errors ?? [])]);
}

