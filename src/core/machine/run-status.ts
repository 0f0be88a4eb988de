import { pendingBudgetOf } from './budget';
import type { PendingApproval, PendingQuestionView, RunStatus } from '../../contract/run-status';
import type { LifecycleEvent } from '../../contract/lifecycle-event';
import { effectiveApprovers, pendingCalls } from './decision-rules';
import { StateLimits, type RunState } from './run-state';
import { taskProgress } from './task-progress';
import { runWarnings } from './on-steer';

// What the status query returns is part of the contract; this file only computes it.
export type { PendingApproval, PendingQuestionView, RunStatus } from '../../contract/run-status';


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
    requestedAt: c.stage.kind === 'person' ? c.stage.requestedAt : '',
    iteration: state.turn!.iteration,
    reason: c.stage.kind === 'person' ? c.stage.reason : '',
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
    ...(state.input.model ?? state.agent.model ? { model: state.input.model ?? state.agent.model } : {}),
    usage: state.usage,
    recentToolCalls: state.recentToolCalls,
    pendingApprovals: pendingApprovalsOf(state),
    pendingQuestion: state.pendingQuestion,
    ...budgetViewOf(state),
    pendingQuestions: pendingQuestionsOf(state),
    children: (state.turn?.calls ?? [])
      .filter((c) => c.child)
      .map((c) => ({ callId: c.id, workflowId: c.child!.workflowId, agent: String((c.input as { agent?: unknown }).agent), running: !c.result })),
    lineage: state.lineage,
    completions: state.thread.completions.slice(-StateLimits.statusCompletions),
    completionCount: state.thread.completions.length,
    followUps: state.input.followUps,
    guardrail: state.outcome?.kind === 'guardrail_tripped' ? { name: state.outcome.guardrail, reason: state.outcome.reason, step: state.outcome.step } : undefined,
    tasks: state.tasks,
    progress: taskProgress(state.tasks),
    completion: state.completion,
    decisions: state.decisions.slice(-10),
    ignored: state.ignored,
    // The checkpoint keeps events loosely (a checkpoint of an earlier release holds what it emitted then);
    // this run's own events are the typed union, older ones may lack a field added since.
    events: state.events as LifecycleEvent[],
    compactions: state.compactions,
    continueAsNewLinks: state.chain.link,
    resumedFrom: state.chain.resumedFrom,
    lastError: state.lastError,
    modelWait: state.modelCall?.nextAttemptAt ? { ...state.modelCall } : undefined,
    sandboxed: state.agent.sandboxed,
    approvers: effectiveApprovers(state),
    signedDecisions: state.approverKeys !== undefined,
    mode: state.mode,
    warnings: runWarnings(state),
    modelText: state.lastReplyText,
  };
}

/** What a run that has not started yet is known by: its input, before the worker resolved its agent. */
export interface StartingRun {
  workflowId: string;
  agent: string;
  task: string;
  user?: string;
  maxIterations?: number;
  followUps?: boolean;
  parent?: { workflowId: string; rootWorkflowId: string; depth: number };
}

/**
 * The status of a run whose worker is still setting it up (resolving the agent, loading preferences):
 * phase `starting`, with what its input says. What only the agent decides is not known yet: the model
 * tier is empty, the iteration cap 0 unless the input set one, and the run counts as unsandboxed.
 */
export function startingStatus(run: StartingRun): RunStatus {
  return {
    workflowId: run.workflowId,
    agent: run.agent,
    startedAs: run.agent,
    task: run.task,
    user: run.user ?? 'default',
    phase: 'starting',
    iteration: 0,
    maxIterations: run.maxIterations ?? 0,
    modelTier: '',
    usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    recentToolCalls: [],
    pendingApprovals: [],
    pendingQuestions: [],
    children: [],
    lineage: run.parent ? { depth: run.parent.depth, parentWorkflowId: run.parent.workflowId, rootWorkflowId: run.parent.rootWorkflowId } : { depth: 0, rootWorkflowId: run.workflowId },
    completions: [],
    completionCount: 0,
    followUps: run.followUps ?? false,
    tasks: [],
    progress: taskProgress([]),
    decisions: [],
    ignored: [],
    events: [],
    compactions: 0,
    continueAsNewLinks: 0,
    sandboxed: false,
    signedDecisions: false,
    warnings: [],
  };
}

/** The budget fields of the status, only for a run with a budget (a run without one shows what it always did). */
function budgetViewOf(state: RunState): Pick<RunStatus, 'pendingBudget' | 'budget'> {
  if (!state.budget) return {};
  const pending = pendingBudgetOf(state);
  const { maxUsd, maxTokens } = state.budget;
  return { budget: { maxUsd, maxTokens }, ...(pending ? { pendingBudget: pending } : {}) };
}
