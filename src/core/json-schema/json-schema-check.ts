import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { InvalidJsonSchemaError } from '../../contract/errors';

/** One problem a value has against a schema: where (property names from the root) and what. */
export interface SchemaProblem {
  path: (string | number)[];
  message: string;
}

export type JsonSchemaCheck = (value: unknown) => { valid: true } | { valid: false; problems: SchemaProblem[] };

type Engine = Ajv;

/**
 * One validator per JSON Schema dialect, made on first use. `strict: false` because schemas come from
 * MCP servers and config files we do not control (unknown keywords are annotations, not errors);
 * `allErrors` so the model hears every problem at once, not one per attempt.
 */
const engines = new Map<string, Engine>();
function engineFor(dialect: string | undefined): Engine {
  const key = dialect?.includes('2020-12') ? '2020' : dialect?.includes('2019-09') ? '2019' : '07';
  let engine = engines.get(key);
  if (!engine) {
    const options = { strict: false, allErrors: true, addUsedSchema: false, logger: false as const };
    engine = key === '2020' ? new Ajv2020(options) : key === '2019' ? new Ajv2019(options) : new Ajv(options);
    addFormats(engine);
    engines.set(key, engine);
  }
  return engine;
}

/** Compiled checks by schema text: the model activity checks the same run's schema every turn. */
const compiled = new Map<string, ValidateFunction>();
const COMPILED_LIMIT = 500;

function pathOf(error: ErrorObject): (string | number)[] {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
  const extra = error.keyword === 'additionalProperties' ? (error.params as { additionalProperty?: string }).additionalProperty : undefined;
  return [...segments, ...(missing ? [missing] : []), ...(extra ? [extra] : [])].map((s) => (/^\d+$/.test(String(s)) ? Number(s) : s));
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'is not allowed here (no such property in the schema)';
  if (error.keyword === 'enum') return `${error.message}: ${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)}`;
  return error.message ?? error.keyword;
}

/**
 * Compiles a JSON Schema (draft-07 unless its `$schema` names 2019-09 or 2020-12) into a check.
 * A schema the validator cannot compile throws `InvalidJsonSchemaError` naming `what` it belongs to.
 */
export function compileJsonSchema(schema: Record<string, unknown>, what: string): JsonSchemaCheck {
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (!validate) {
    const { $schema: dialect, ...rest } = schema;
    try {
      validate = engineFor(typeof dialect === 'string' ? dialect : undefined).compile(rest);
    } catch (error) {
      throw new InvalidJsonSchemaError(`${what} is not a usable JSON Schema: ${(error as Error).message}`);
    }
    if (compiled.size >= COMPILED_LIMIT) compiled.delete(compiled.keys().next().value!);
    compiled.set(text, validate);
  }
  const check = validate;
  return (value) => {
    if (check(value)) return { valid: true };
    return { valid: false, problems: (check.errors ?? []).map((e) => ({ path: pathOf(e), message: messageOf(e) })) };
  };
}

/** One line per problem, in the style of `describeZodError`. */
export function describeSchemaProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `- ${p.path.length > 0 ? p.path.join('.') : '(input)'}: ${p.message}`).join('\n');
}
