import { completeTask } from './complete-task';
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
export { delegateTask, DelegationSchema, type Delegation } from './delegate-task';
export { handoff, HandoffSchema, type Handoff } from './handoff';
export type { ControlTool } from './control-tool';

/** Every agent has these, whatever its tool list says: without them a run could not end or ask. */
export const controlTools: readonly ControlTool[] = [completeTask, needMoreInformation, updateTasks, summarizeAndContinue];

/** Offered only to agents (or runs) that name sub-agents or handoff targets. */
export const teamTools: readonly ControlTool[] = [delegateTask, handoff];

/** Names the workflow handles itself; no worker tool may take them. */
export const controlToolNames: ReadonlySet<string> = new Set([...controlTools, ...teamTools].map((t) => t.name));
