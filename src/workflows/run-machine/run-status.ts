import type { Completion, Task } from '../../control-tools';
import type { TokenUsage } from '../../conversation/messages';
import type { LifecycleEvent } from '../../lifecycle/lifecycle-event';
import { effectiveApprovers, pendingCalls } from './decision-rules';
import type { DecisionRecord, IgnoredMessage, PendingQuestion, RunPhase, RunState, ToolCallRecord } from './run-state';
import { taskProgress, type TaskProgress } from './task-progress';

/** A tool call parked until a person decides. `callId` is the model's tool_use id. */
export interface PendingApproval {
  callId: string;
  tool: string;
  input: unknown;
  requestedAt: string;
  iteration: number;
  /** Why the policy asked (e.g. "write tools: approve"). */
  reason: string;
  /** What the model said in the same turn, so the person sees why it wants this. */
  context?: string;
  /** The run that waits for the decision (a sub-agent's, when it is not this one). */
  workflowId: string;
  /** For a shell call: the simple commands the worker's parser found, one line each. */
  commands?: string[];
  /** Who may decide it, when the waiting run restricts that. */
  approvers?: string[];
}

/** A question waiting for the user, in this run or in one of its sub-agents' runs. */
export interface PendingQuestionView {
  callId: string;
  question: string;
  context?: string;
  askedAt: string;
  workflowId: string;
}

/** What the `status` query returns. */
export interface RunStatus {
  workflowId: string;
  /** The agent that holds the run now (it changes with a handoff). */
  agent: string;
  /** The agent the run was started with. */
  startedAs: string;
  task: string;
  user: string;
  phase: RunPhase;
  iteration: number;
  maxIterations: number;
  /** The model tier of the agent that holds the run; the worker maps it to a model id (AGENT_MODEL_*). */
  modelTier: string;
  usage: TokenUsage;
  recentToolCalls: ToolCallRecord[];
  pendingApprovals: PendingApproval[];
  pendingQuestion?: PendingQuestion;
  /** Every question waiting in this run and its sub-agents' runs. */
  pendingQuestions: PendingQuestionView[];
  /** Sub-agent runs of the current turn. */
  children: { callId: string; workflowId: string; agent: string; running: boolean }[];
  /** Where this run sits in a tree of runs (depth 0: started by a person). */
  lineage: { depth: number; parentWorkflowId?: string; rootWorkflowId?: string };
  /** A thread's completions so far. */
  completions: Completion[];
  /** Whether the run is a thread that takes follow-up messages (its input `followUps`). */
  followUps: boolean;
  /** Set when a guardrail ended the run. */
  guardrail?: { name: string; reason: string; step: string };
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
  /** While the model API is unavailable: the attempt, the last error and when the next attempt starts. */
  modelWait?: { attempt: number; lastError?: string; nextAttemptAt?: string };
  /** Whether tool commands run in the worker's sandbox (false: unsandboxed, see docs/security.md). */
  sandboxed: boolean;
  /** Who may decide this run's calls; absent when anyone may. */
  approvers?: string[];
  /** Whether decisions must be signed (the worker has an approver registry). */
  signedDecisions: boolean;
  warnings: string[];
  /**
   * The text of the model's latest reply (its last 4,000 characters; `chars` in all), so a follower
   * that streamed it from heartbeats can print the end the last heartbeat did not carry.
   */
  modelText?: { iteration: number; text: string; chars: number };
}

export function pendingApprovalsOf(state: RunState): PendingApproval[] {
  return [...ownPendingApprovals(state), ...Object.values(state.childWaiting).flatMap((w) => w.approvals)];
}

export function pendingQuestionsOf(state: RunState): PendingQuestionView[] {
  const own = state.pendingQuestion ? [{ ...state.pendingQuestion, workflowId: state.workflowId }] : [];
  return [...own, ...Object.values(state.childWaiting).flatMap((w) => w.questions)];
}

export function ownPendingApprovals(state: RunState): PendingApproval[] {
  const approvers = effectiveApprovers(state);
  return pendingCalls(state).map((c) => ({
    callId: c.id,
    tool: c.name,
    input: c.input,
    requestedAt: c.verdict.kind === 'pending' ? c.verdict.requestedAt : '',
    iteration: state.turn!.iteration,
    reason: c.verdict.kind === 'pending' ? c.verdict.reason : '',
    context: state.turn!.contextText,
    workflowId: state.workflowId,
    ...(c.analysis ? { commands: c.analysis.commands.map((cmd) => cmd.source) } : {}),
    ...(approvers ? { approvers } : {}),
  }));
}

export function toStatus(state: RunState): RunStatus {
  return {
    workflowId: state.workflowId,
    agent: state.agent.name,
    startedAs: state.input.agent,
    task: state.input.task,
    user: state.input.user,
    phase: state.phase,
    iteration: state.iteration,
    maxIterations: state.input.maxIterations,
    modelTier: state.agent.modelTier,
    usage: state.usage,
    recentToolCalls: state.recentToolCalls,
    pendingApprovals: pendingApprovalsOf(state),
    pendingQuestion: state.pendingQuestion,
    pendingQuestions: pendingQuestionsOf(state),
    children: (state.turn?.calls ?? [])
      .filter((c) => c.child)
      .map((c) => ({ callId: c.id, workflowId: c.child!.workflowId, agent: String((c.input as { agent?: unknown }).agent), running: !c.result })),
    lineage: state.lineage,
    completions: state.thread.completions,
    followUps: state.input.followUps,
    guardrail: state.outcome?.kind === 'guardrail_tripped' ? { name: state.outcome.guardrail, reason: state.outcome.reason, step: state.outcome.step } : undefined,
    tasks: state.tasks,
    progress: taskProgress(state.tasks),
    completion: state.completion,
    decisions: state.decisions.slice(-10),
    ignored: state.ignored,
    events: state.events as LifecycleEvent[],
    compactions: state.compactions,
    continueAsNewLinks: state.chain.link,
    resumedFrom: state.chain.resumedFrom,
    lastError: state.lastError,
    modelWait: state.modelCall?.nextAttemptAt ? { ...state.modelCall } : undefined,
    sandboxed: state.agent.sandboxed,
    approvers: effectiveApprovers(state),
    signedDecisions: state.approverKeys !== undefined,
    warnings: state.warnings,
    modelText: state.lastReplyText,
  };
}
