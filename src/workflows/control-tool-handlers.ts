import { CompletionSchema, SavedSummarySchema, TaskListSchema, completeTask, needMoreInformation, summarizeAndContinue, updateTasks } from '../control-tools';
import type { Completion } from '../control-tools';
import { describeZodError } from '../describe-zod-error';
import type { ToolResult } from '../tools/tool-result';
import type { RunState } from './run-state';
import { taskProgress } from './task-progress';

export type ControlOutcome =
  | { kind: 'result'; result: ToolResult }
  | { kind: 'complete'; completion: Completion; result: ToolResult }
  | { kind: 'ask'; question: string; context?: string };

const invalid = (tool: string, error: Parameters<typeof describeZodError>[0]): ControlOutcome => ({
  kind: 'result',
  result: { success: false, shouldContinue: true, output: `Invalid arguments for ${tool}:\n${describeZodError(error)}` },
});

/** Handles a control tool inside the workflow: deterministic, and recorded in the run state. */
export function handleControlTool(state: RunState, name: string, input: unknown): ControlOutcome {
  switch (name) {
    case completeTask.name: {
      const parsed = CompletionSchema.safeParse(input);
      if (!parsed.success) return invalid(name, parsed.error);
      return {
        kind: 'complete',
        completion: parsed.data,
        result: { success: true, shouldContinue: false, output: `Task ended (${parsed.data.status}).` },
      };
    }
    case needMoreInformation.name: {
      const parsed = needMoreInformation.inputSchema.safeParse(input);
      if (!parsed.success) return invalid(name, parsed.error);
      return { kind: 'ask', question: parsed.data.question, context: parsed.data.context };
    }
    case updateTasks.name: {
      const parsed = TaskListSchema.safeParse(input);
      if (!parsed.success) return invalid(name, parsed.error);
      const ids = new Set(parsed.data.tasks.map((t) => t.id));
      if (ids.size !== parsed.data.tasks.length) {
        return { kind: 'result', result: { success: false, shouldContinue: true, output: 'Task ids must be unique.' } };
      }
      state.tasks = parsed.data.tasks;
      return { kind: 'result', result: { success: true, shouldContinue: true, output: taskProgress(state.tasks).text } };
    }
    case summarizeAndContinue.name: {
      const parsed = SavedSummarySchema.safeParse(input);
      if (!parsed.success) return invalid(name, parsed.error);
      state.savedSummaries.push(parsed.data);
      const focus = parsed.data.nextSteps.join(', ') || 'the task';
      return {
        kind: 'result',
        result: { success: true, shouldContinue: true, output: `Summary saved; it is kept for the rest of the run. Continuing with: ${focus}` },
      };
    }
    default:
      return { kind: 'result', result: { success: false, shouldContinue: true, output: `Unknown control tool ${name}` } };
  }
}
