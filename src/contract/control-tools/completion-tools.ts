import { z } from 'zod';
import { attemptCompletion, completionOfAttemptCompletion } from './attempt-completion';
import { completeTask, CompletionSchema, type Completion } from './complete-task';
import type { ControlTool } from './control-tool';
import { completionOfTaskCompleted, taskCompleted } from './task-completed';

/**
 * The tools that end a run. `complete_task` is ours; the others are the seeds' names and shapes,
 * so an agent whose prompts were written for them (`completionTools` in its definition) can keep
 * them. Each maps onto the same `Completion`.
 */
export const CompletionToolNameSchema = z.enum(['complete_task', 'task_completed', 'attempt_completion']);
export type CompletionToolName = z.infer<typeof CompletionToolNameSchema>;

export const DEFAULT_COMPLETION_TOOLS: readonly CompletionToolName[] = ['complete_task'];

interface CompletionTool {
  tool: ControlTool;
  toCompletion(input: unknown): { success: true; completion: Completion } | { success: false; error: z.ZodError };
}

function completionTool<S extends z.ZodObject>(tool: ControlTool<S>, map: (input: z.infer<S>) => Completion): CompletionTool {
  return {
    tool,
    toCompletion(input) {
      const parsed = tool.inputSchema.safeParse(input);
      return parsed.success ? { success: true, completion: map(parsed.data) } : { success: false, error: parsed.error };
    },
  };
}

export const completionTools: Record<CompletionToolName, CompletionTool> = {
  complete_task: completionTool(completeTask, (input) => CompletionSchema.parse(input)),
  task_completed: completionTool(taskCompleted, completionOfTaskCompleted),
  attempt_completion: completionTool(attemptCompletion, completionOfAttemptCompletion),
};

export const completionToolNames: ReadonlySet<string> = new Set(CompletionToolNameSchema.options);

export function isCompletionToolName(name: string): name is CompletionToolName {
  return completionToolNames.has(name);
}
