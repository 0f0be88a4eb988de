import { z } from 'zod';

/**
 * The model activity's verdict on the `output` of a completion call, when the run asks for a typed
 * result. Computed on the worker (where the JSON Schema validator lives) and recorded with the
 * model's reply, so the workflow only reads it: replaying a history gives the same verdict.
 */
export const OutputCheckSchema = z.object({
  valid: z.boolean(),
  /** One line per problem, for the model to fix (only when not valid). */
  problems: z.string().optional(),
});
export type OutputCheck = z.infer<typeof OutputCheckSchema>;

/** A JSON Schema object, as run inputs and agent config files give it. */
export const JsonSchemaObjectSchema = z.record(z.string(), z.unknown());
