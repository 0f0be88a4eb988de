import { z } from 'zod';
import type { Completion } from './complete-task';
import type { ControlTool } from './control-tool';

/** drowcoder's (and Cline's) completion tool: only the result, which is always a success. */
export const AttemptCompletionSchema = z.object({
  result: z.string().min(1).describe('The final result of the task, for the user'),
});

export const attemptCompletion: ControlTool<typeof AttemptCompletionSchema> = {
  name: 'attempt_completion',
  description:
    '[COMPLETION SIGNAL] Call this once the task is done, with the result for the user. It ends the task; ' +
    'a reply without a tool call does NOT.',
  inputSchema: AttemptCompletionSchema,
};

export function completionOfAttemptCompletion(input: z.infer<typeof AttemptCompletionSchema>): Completion {
  return { summary: input.result, status: 'success' };
}
