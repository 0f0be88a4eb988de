import type { PendingBudget } from './budget';
import type { PermissionMode } from './permission-mode';
import type { Completion, Task } from './control-tools';
import type { TokenUsage } from './messages';
import type { LifecycleEvent } from './lifecycle-event';
import type { DecisionRecord, IgnoredMessage, PendingQuestion, RunPhase, ToolCallRecord } from './run-records';

/** How far the run's task list has come, as the status and the CLI show it. */
export interface TaskProgress {
  completed: number;
  total: number;
  percent: number;
  /** "Progress: 3/5 tasks (60%)", as the seeds show it. */
  text: string;
  lines: string[];
}

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
  /** The exact model id the run or its agent asked for, when one did (then it wins over the tier's). */
  model?: string;
  usage: TokenUsage;
  recentToolCalls: ToolCallRecord[];
  pendingApprovals: PendingApproval[];
  pendingQuestion?: PendingQuestion;
  /** Phase `waiting_budget` (issue 34): what the run spent and the limits its next model call would cross. */
  pendingBudget?: PendingBudget;
  /** The run's spend budget as it stands (raised included), when it has one. */
  budget?: { maxUsd?: number; maxTokens?: number };
  /** Every question waiting in this run and its sub-agents' runs. */
  pendingQuestions: PendingQuestionView[];
  /** Sub-agent runs of the current turn. */
  children: { callId: string; workflowId: string; agent: string; running: boolean }[];
  /** Where this run sits in a tree of runs (depth 0: started by a person). */
  lineage: { depth: number; parentWorkflowId?: string; rootWorkflowId?: string };
  /** A thread's completions: the latest ones (at most 20; `completionCount` says how many there are in all). */
  completions: Completion[];
  /** How many completions the thread has had (its result returns them all); absent from runs of earlier releases' workers. */
  completionCount?: number;
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
  /** Whether tool commands run in the worker's sandbox (false: unsandboxed, see docs/guides/security.md). */
  sandboxed: boolean;
  /** Who may decide this run's calls; absent when anyone may. */
  approvers?: string[];
  /** Whether decisions must be signed (the worker has an approver registry). */
  signedDecisions: boolean;
  /** The permission mode in force (default, plan, acceptEdits, dontAsk); absent from runs of earlier releases. */
  mode?: PermissionMode;
  warnings: string[];
  /**
   * The text of the model's latest reply (its last 4,000 characters; `chars` in all), so a follower
   * that streamed it from heartbeats can print the end the last heartbeat did not carry.
   */
  modelText?: { iteration: number; text: string; chars: number };
}
