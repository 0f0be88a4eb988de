import type { z } from 'zod';
import type {
  AttemptCompletionSchema,
  CompletionSchema,
  DelegationSchema,
  HandoffSchema,
  QuestionSchema,
  SavedSummarySchema,
  TaskCompletedSchema,
  TaskListSchema,
} from '../contract/control-tools';
import type { Tool } from '../runtime/tools/tool-definition';

/** The inputs of the control tools every agent has (the workflow handles them), by name. */
export interface ControlToolInputs {
  complete_task: z.input<typeof CompletionSchema>;
  need_more_information: z.input<typeof QuestionSchema>;
  update_tasks: z.input<typeof TaskListSchema>;
  summarize_and_continue: z.input<typeof SavedSummarySchema>;
  task_completed: z.input<typeof TaskCompletedSchema>;
  attempt_completion: z.input<typeof AttemptCompletionSchema>;
  delegate_task: z.input<typeof DelegationSchema>;
  handoff: z.input<typeof HandoffSchema>;
}

/**
 * The input each of `tools` takes, by its name (what the model sends, before the schema's defaults
 * and transforms), and the control tools'. A tool whose name is typed only as `string` takes any name.
 */
export type ToolInputs<T extends readonly Tool[]> = { [K in T[number] as K['name']]: z.input<K['inputSchema']> } & ControlToolInputs;
