import { z } from 'zod';
import type { ControlTool } from './control-tool';

export const SavedSummarySchema = z.object({
  keyPoints: z.array(z.string()).describe('Facts and decisions worth keeping'),
  nextSteps: z.array(z.string()).describe('What you will do next'),
});
export type SavedSummary = z.infer<typeof SavedSummarySchema>;

export const summarizeAndContinue: ControlTool<typeof SavedSummarySchema> = {
  name: 'summarize_and_continue',
  description:
    'Consolidate what you have learned so far. The key points and next steps are kept for the rest of the run, ' +
    'even when older turns are summarized away to keep the context small.',
  inputSchema: SavedSummarySchema,
};
