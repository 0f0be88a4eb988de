import { z } from 'zod';
import type { ControlTool } from './control-tool';

export const CompletionSchema = z.object({
  summary: z.string().min(1).describe('What was accomplished, or why the work stopped'),
  status: z.enum(['success', 'partial', 'blocked']).describe('success: all done; partial: some done; blocked: cannot go on'),
  next_steps: z.string().optional().describe('What a person (or a resumed run) should do next'),
});
export type Completion = z.infer<typeof CompletionSchema>;

export const completeTask: ControlTool<typeof CompletionSchema> = {
  name: 'complete_task',
  description:
    '[COMPLETION SIGNAL] Call this, and only this, to end the task: when the work is done and verified (status success), ' +
    'when only part could be done (partial), or when you cannot go on (blocked). A reply without a tool call does NOT end the task.',
  inputSchema: CompletionSchema,
};
