import type { z } from 'zod';

/** A tool the workflow handles itself. Its schema is the single source for validation and JSON Schema. */
export interface ControlTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  inputSchema: S;
}
