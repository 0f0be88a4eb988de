import { z } from 'zod';

/**
 * What every tool returns. `success` (did the tool do its job?) and `shouldContinue` (should the agent
 * loop go on?) are separate on purpose: a failed read is recoverable and the loop goes on, while a
 * successful `complete_task` ends it.
 */
/**
 * What a tool may show the model besides its text: an image (a screenshot, a chart) or a PDF, as
 * base64. The worker keeps them in the conversation store and adds them to the `tool_result` it
 * sends the model; the run's history only carries a line saying what was attached.
 */
export const ToolContentPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('image'), mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), data: z.string().min(1) }),
  z.object({ type: z.literal('document'), mediaType: z.literal('application/pdf'), data: z.string().min(1), title: z.string().optional() }),
]);
export type ToolContentPart = z.infer<typeof ToolContentPartSchema>;

export const ToolResultSchema = z.object({
  success: z.boolean(),
  output: z.string(),
  shouldContinue: z.boolean(),
  /** Images and documents for the model to see, after `output` (see ToolContentPartSchema). */
  content: z.array(ToolContentPartSchema).optional(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

export const ToolResult = {
  success: (output: string): ToolResult => ({ success: true, output, shouldContinue: true }),
  error: (output: string): ToolResult => ({ success: false, output, shouldContinue: true }),
  complete: (output: string): ToolResult => ({ success: true, output, shouldContinue: false }),
};
