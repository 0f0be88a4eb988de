import { z } from 'zod';

/** What a tool may touch; the approval policy maps each scope to allow / ask / reject. */
export const ToolScopeSchema = z.enum(['read', 'write', 'execute']);
export type ToolScope = z.infer<typeof ToolScopeSchema>;
