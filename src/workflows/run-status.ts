import type { Completion, Task } from '../control-tools';
import type { TokenUsage } from '../conversation/messages';
import type { LifecycleEvent } from '../lifecycle/lifecycle-event';
import type {
  DecisionRecord,
  IgnoredMessage,
  PendingApproval,
  PendingQuestion,
  RunPhase,
  RunState,
  ToolCallRecord,
} from './run-state';
import { taskProgress, type TaskProgress } from './task-progress';

/** What the `status` query returns. */
export interface RunStatus {
  workflowId: string;
  agent: string;
  task: string;
  user: string;
  phase: RunPhase;
  iteration: number;
  maxIterations: number;
  usage: TokenUsage;
  recentToolCalls: ToolCallRecord[];
  pendingApprovals: PendingApproval[];
  pendingQuestion?: PendingQuestion;
  tasks: Task[];
  progress: TaskProgress;
  completion?: Completion;
  decisions: DecisionRecord[];
  ignored: IgnoredMessage[];
  events: LifecycleEvent[];
  compactions: number;
  continueAsNewLinks: number;
  resumedFrom?: string;
  lastError?: string;
}

export function toStatus(state: RunState): RunStatus {
  return {
    workflowId: state.workflowId,
    agent: state.input.agent,
    task: state.input.task,
    user: state.input.user,
    phase: state.phase,
    iteration: state.iteration,
    maxIterations: state.input.maxIterations,
    usage: state.usage,
    recentToolCalls: state.recentToolCalls,
    pendingApprovals: state.pendingApprovals,
    pendingQuestion: state.pendingQuestion,
    tasks: state.tasks,
    progress: taskProgress(state.tasks),
    completion: state.completion,
    decisions: state.decisions.slice(-10),
    ignored: state.ignored,
    events: state.events,
    compactions: state.compactions,
    continueAsNewLinks: state.chain.link,
    resumedFrom: state.chain.resumedFrom,
    lastError: state.lastError,
  };
}
