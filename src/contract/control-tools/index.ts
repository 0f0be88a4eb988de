import { completeTask } from './complete-task';
import { completionToolNames, completionTools, DEFAULT_COMPLETION_TOOLS, type CompletionToolName } from './completion-tools';
import { delegateTask } from './delegate-task';
import { handoff } from './handoff';
import type { ControlTool } from './control-tool';
import { needMoreInformation } from './need-more-information';
import { summarizeAndContinue } from './summarize-and-continue';
import { updateTasks } from './update-tasks';

export { completeTask, CompletionSchema, type Completion } from './complete-task';
export { needMoreInformation, QuestionSchema, type Question } from './need-more-information';
export { updateTasks, TaskSchema, TaskListSchema, TaskStatusSchema, type Task, type TaskStatus } from './update-tasks';
export { summarizeAndContinue, SavedSummarySchema, type SavedSummary } from './summarize-and-continue';
export { taskCompleted, TaskCompletedSchema } from './task-completed';
export { attemptCompletion, AttemptCompletionSchema } from './attempt-completion';
export {
  completionTools,
  completionToolNames,
  CompletionToolNameSchema,
  DEFAULT_COMPLETION_TOOLS,
  isCompletionToolName,
  type CompletionToolName,
} from './completion-tools';
export { delegateTask, DelegationSchema, type Delegation } from './delegate-task';
export { handoff, HandoffSchema, type Handoff } from './handoff';
export type { ControlTool } from './control-tool';

/** Every agent has these, whatever its tool list says: without them a run could not end or ask. */
export const controlTools: readonly ControlTool[] = [completeTask, needMoreInformation, updateTasks, summarizeAndContinue];

/** Offered only to agents (or runs) that name sub-agents or handoff targets. */
export const teamTools: readonly ControlTool[] = [delegateTask, handoff];

/** Names the workflow handles itself (with the default completion tool); no worker tool may take them. */
export const controlToolNames: ReadonlySet<string> = new Set([...controlTools, ...teamTools].map((t) => t.name));

/** Names no agent tool may take: the control tools and every completion tool, used or not. */
export const reservedToolNames: ReadonlySet<string> = new Set([...controlToolNames, ...completionToolNames]);

/**
 * The control tools of an agent, in the order the model sees them: its completion tools (by default
 * `complete_task` alone, which gives exactly `controlTools`), then the others.
 */
export function controlToolsFor(completion: readonly CompletionToolName[] = DEFAULT_COMPLETION_TOOLS): ControlTool[] {
  const others = controlTools.filter((t) => !completionToolNames.has(t.name));
  return [...completion.map((name) => completionTools[name].tool), ...others];
}
