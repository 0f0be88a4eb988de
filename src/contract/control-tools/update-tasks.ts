import { z } from 'zod';
import type { ControlTool } from './control-tool';

export const TaskStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'failed', 'skipped']);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

export const TaskSchema = z.object({
  id: z.string().min(1),
  description: z.string().min(1),
  status: TaskStatusSchema,
  notes: z.string().optional().describe('Why it failed or was skipped, or what was done'),
});
export type Task = z.infer<typeof TaskSchema>;

export const TaskListSchema = z.object({
  tasks: z.array(TaskSchema).describe('The whole task list, every time (not just the changes)'),
});

export const updateTasks: ControlTool<typeof TaskListSchema> = {
  name: 'update_tasks',
  description:
    'Record your plan as a task list and keep it current: send the whole list each time with each task\'s status ' +
    '(pending, in_progress, completed, failed, skipped). The user sees progress from it, and a resumed run starts from it.',
  inputSchema: TaskListSchema,
};
