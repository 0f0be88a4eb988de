import { z } from 'zod';
import { describeZodError } from '../../contract/describe-zod-error';
import { compileJsonSchema, describeSchemaProblems } from '../json-schema/json-schema-check';

/** A typed result a run must return: the schema the model is shown, and the check its `output` must pass. */
export interface OutputContract {
  jsonSchema: Record<string, unknown>;
  check(value: unknown): { valid: true } | { valid: false; problems: string };
}

const zodContracts = new WeakMap<z.ZodType, OutputContract>();

/**
 * The contract of an output schema: a zod schema (an agent defined in code) is checked with zod and
 * shown to the model as its JSON Schema; a JSON Schema (a run input, a config file) is checked with
 * the JSON Schema validator. A schema that cannot be used throws, naming `what` it belongs to.
 */
export function outputContractOf(schema: z.ZodType | Record<string, unknown>, what: string): OutputContract {
  if (schema instanceof z.ZodType) {
    const known = zodContracts.get(schema);
    if (known) return known;
    const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    const contract: OutputContract = {
      jsonSchema,
      check(value) {
        const parsed = schema.safeParse(value);
        return parsed.success ? { valid: true } : { valid: false, problems: describeZodError(parsed.error) };
      },
    };
    zodContracts.set(schema, contract);
    return contract;
  }
  const check = compileJsonSchema(schema, what);
  const { $schema: _dialect, ...jsonSchema } = schema;
  return {
    jsonSchema,
    check(value) {
      const result = check(value);
      return result.valid ? { valid: true } : { valid: false, problems: describeSchemaProblems(result.problems) };
    },
  };
}
