import type { z } from 'zod';

/** Turns a zod error into one line per problem (where, and what was wrong) that a model or a person can act on. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `- ${issue.path.length > 0 ? issue.path.join('.') : '(input)'}: ${issue.message}`)
    .join('\n');
}
