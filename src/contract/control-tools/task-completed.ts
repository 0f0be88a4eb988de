import { z } from 'zod';
import type { Completion } from './complete-task';
import type { ControlTool } from './control-tool';

/** Peekaboo's completion tool, kept in its own shape so prompts written for it work unchanged. */
export const TaskCompletedSchema = z.object({
  summary: z.string().min(1).describe('What was accomplished, or why the work stopped'),
  success: z.boolean().describe('true when the task is done; false when only part of it could be done'),
  next_steps: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('What a person (or a resumed run) should do next'),
});

export const taskCompleted: ControlTool<typeof TaskCompletedSchema> = {
  name: 'task_completed',
  description:
    '[COMPLETION SIGNAL] Call this, and only this, to end the task, with a summary and whether it succeeded. ' +
    'A reply without a tool call does NOT end the task.',
  inputSchema: TaskCompletedSchema,
};

/** `success: false` means the agent stopped short of the goal: the same as complete_task's "partial". */
export function completionOfTaskCompleted(input: z.infer<typeof TaskCompletedSchema>): Completion {
  const next = Array.isArray(input.next_steps) ? input.next_steps.join('\n') : input.next_steps;
  return { summary: input.summary, status: input.success ? 'success' : 'partial', ...(next ? { next_steps: next } : {}) };
}
