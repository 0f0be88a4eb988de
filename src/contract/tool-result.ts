import { z } from 'zod';

/**
 * What every tool returns. `success` (did the tool do its job?) and `shouldContinue` (should the agent
 * loop go on?) are separate on purpose: a failed read is recoverable and the loop goes on, while a
 * successful `complete_task` ends it.
 */
export const ToolResultSchema = z.object({
  success: z.boolean(),
  output: z.string(),
  shouldContinue: z.boolean(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

export const ToolResult = {
  success: (output: string): ToolResult => ({ success: true, output, shouldContinue: true }),
  error: (output: string): ToolResult => ({ success: false, output, shouldContinue: true }),
  complete: (output: string): ToolResult => ({ success: true, output, shouldContinue: false }),
};
