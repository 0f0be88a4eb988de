import { childBudgetOf } from '../core/machine/budget';
import { ActivityFailure, ApplicationFailure, CancellationScope, ChildWorkflowFailure, condition, isCancellation, ParentClosePolicy, patched, startChild, TimeoutFailure } from '@temporalio/workflow';
import type { PreferenceRule } from '../core/approvals/preference-rules';
import { FailureType } from '../contract/errors';
import { localTools, model, onceTools, setup, summarizer, tools } from './activity-stubs';
import type { RunEvent } from '../core/machine/run-events';
import type { OutcomeUnknownReason } from '../core/machine/on-tool';
import { approvalOf, callSummary, permissionOf } from '../core/machine/call-records';
import type { NextStep, ToolRun } from '../core/machine/next-step';
import { ResolvedAgentSchema } from '../contract/resolved-agent';
import { type RunState, type TurnCall } from '../core/machine/run-state';
import { allowedSubAgents, childWorkflowId, type ChildOutcome } from '../core/machine/on-team';
import { effectiveApprovers } from '../core/machine/decision-rules';
import { commandPatternsOf } from '../core/approvals/approval-policy';
import type { AgentRunResult, AgentRunWorkflow } from '../contract/run-result';
import { learnNexusTools, nexusTargetOf, runNexusToolStep } from './nexus-tool-call';
import { Patches } from './compat/patches';

/** The conversation as the activity should rebuild it: what it already keeps, plus what is new. */
export function conversationRef(state: RunState) {
  const { key, syncedCount, tag } = state.conversation;
  return { key, owner: state.workflowId, baseCount: syncedCount, tag, append: state.messages.slice(syncedCount) };
}

function applicationCause(error: unknown): ApplicationFailure | undefined {
  return error instanceof ActivityFailure && error.cause instanceof ApplicationFailure ? error.cause : undefined;
}

const isStoreMiss = (error: unknown) => applicationCause(error)?.type === FailureType.ConversationStoreMiss;

/** Retry-after the activity saw, carried in the failure's details (see model/model-errors.ts). */
function retryAfterOf(failure: ApplicationFailure): number | undefined {
  const detail = failure.details?.[0] as { retryAfterMs?: unknown } | undefined;
  return typeof detail?.retryAfterMs === 'number' ? detail.retryAfterMs : undefined;
}

/** Whom the model may delegate to or hand off to; nothing for a run without a team (as before teams existed). */
function teamOffer(state: RunState) {
  const subAgents = allowedSubAgents(state);
  if (subAgents.length === 0 && state.agent.handoffs.length === 0) return {};
  const { maxDepth, maxPerTurn } = state.agent.delegation;
  return { team: { subAgents, handoffs: state.agent.handoffs, depth: state.lineage.depth, maxDepth, maxPerTurn } };
}

/** One attempt of the iteration's model call (the machine counted it when the step was taken). */
export async function callModelStep(state: RunState, step: Extract<NextStep, { kind: 'call_model' }>, continuePausedTurns = true, note = ''): Promise<RunEvent> {
  try {
    const result = await model.callModel.executeWithOptions({ summary: `model ${state.agent.modelTier} #${state.iteration}${note}` }, [
      {
        agent: state.agent.name,
        iteration: state.iteration,
        conversation: conversationRef(state),
        ...teamOffer(state),
        // Only runs that ask for a typed result carry it, so every other call's input is as before.
        ...(state.input.outputSchema ? { outputSchema: state.input.outputSchema } : {}),
        // Likewise the run's own model and effort: absent unless the run set them.
        ...(state.input.model ? { model: state.input.model } : {}),
        ...(state.input.effort ? { effort: state.input.effort } : {}),
      },
    ]);
    const nudge = result.stopReason === 'pause_turn' && !continuePausedTurns ? { pauseNudge: true as const } : {};
    // Issue 36: the worker's verdict on Nexus calls' arguments counts only in executions that know it.
    const { argumentProblems, ...reply } = result;
    const checked = argumentProblems && patched(Patches.nexusArgumentChecks) ? { argumentProblems } : {};
    return { type: 'model_replied', ...reply, ...checked, ...nudge };
  } catch (error) {
    if (isCancellation(error)) throw error;
    if (isStoreMiss(error)) return { type: 'conversation_resent' };
    const failure = applicationCause(error);
    if (!failure) throw error;
    // Histories from before the outage wait (see patches.ts) failed the run here; they still do.
    const retryable = failure.type === FailureType.ModelUnavailable && step.waitOutOutage;
    return { type: 'model_failed', retryable, errorType: failure.type ?? FailureType.RunFailed, message: failure.message, retryAfterMs: retryAfterOf(failure) };
  }
}

/**
 * Summarizes the turns before the plan's split (or only cuts oversized outputs, without a model call).
 * A store miss is reported like the model call's: the machine marks the conversation to be sent whole,
 * and the loop asks again. The plan does not depend on what the store holds, so the next step is this
 * compaction again (unless the history filled up meanwhile: then the next link compacts).
 */
export async function compactStep(state: RunState, { plan, byBudget }: Extract<NextStep, { kind: 'compact' }>): Promise<RunEvent> {
  if (plan.split === undefined) return { type: 'compacted', estimate: plan.estimate, fit: true };
  try {
    const result = await summarizer.summarizeConversation.executeWithOptions({ summary: `compact turns 1-${plan.split - 1}` }, [
      // From 0: the first message carries the previous summary, so the new one replaces it.
      { conversation: conversationRef(state), from: 0, to: plan.split, task: state.input.task, agent: state.agent.name },
    ]);
    return { type: 'compacted', ...result, split: plan.split, estimate: plan.estimate, fit: byBudget };
  } catch (error) {
    if (!isStoreMiss(error)) throw error;
    return { type: 'conversation_resent' };
  }
}

/**
 * Runs one approved tool call. A call whose tool is not safe to repeat gets one attempt: if its
 * worker dies, the model is told the outcome is unknown instead of the command running twice. A call
 * that is safe to repeat that still fails after its attempts becomes an error result.
 */
export async function runToolStep(state: RunState, call: ToolRun, endsRun: boolean, note = ''): Promise<RunEvent> {
  const nexus = nexusTargetOf(call.name);
  if (nexus) return runNexusToolStep(call, nexus, endsRun);
  const tool = state.agent.tools[call.name]!;
  const stub = call.lane === 'once' ? onceTools : tools;
  const started = Date.now();
  const input = {
    agent: state.agent.name,
    tool: call.name,
    callId: call.id,
    input: call.input,
    workflowId: state.workflowId,
    network: state.input.network ?? state.agent.network,
    approval: approvalOf(state, call.id),
    // Who let it run and whether it may write: the sandbox and the file tools enforce it.
    permission: permissionOf(state, call),
    iteration: state.turn?.iteration,
  };
  try {
    const timeout = tool.timeoutSeconds ? { startToCloseTimeout: `${tool.timeoutSeconds} seconds` } : {};
    const result =
      (call.lane === 'local' ? await runLocally(input) : undefined) ??
      (await stub.runTool.executeWithOptions({ summary: callSummary(call.name, call.input) + note, ...timeout }, [input]));
    const legacy = endsRun ? {} : { legacy: true };
    return { type: 'tool_finished', callId: call.id, result, durationMs: Date.now() - started, ...legacy };
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    const cause = error.cause?.message ?? error.message;
    const durationMs = Date.now() - started;
    if (call.lane === 'once') return { type: 'tool_outcome_unknown', callId: call.id, cause, durationMs, reason: outcomeUnknownReason(error, tool.timeoutSeconds) };
    const result = { success: false, shouldContinue: true, output: `${call.name} could not finish (${cause}). Try a different approach.` };
    return { type: 'tool_finished', callId: call.id, result, durationMs };
  }
}

/**
 * Why an activity ended without an answer. Only a missed heartbeat says the worker stopped: a worker
 * that dies (or hangs) stops heartbeating, while one that is alive heartbeats through the whole call,
 * however slow (the workspace walk before a command included). A call past its start-to-close timeout
 * timed out; anything else failed in the worker.
 */
function outcomeUnknownReason(error: ActivityFailure, limitSeconds: number | undefined): OutcomeUnknownReason {
  if (!(error.cause instanceof TimeoutFailure)) return { kind: 'failed' };
  if (error.cause.timeoutType === 'HEARTBEAT') return { kind: 'worker_stopped' };
  return limitSeconds === undefined ? { kind: 'timed_out' } : { kind: 'timed_out', limitSeconds };
}

/** A quick call as a local activity; undefined when it failed, so the caller runs it as an ordinary activity. */
async function runLocally(input: Parameters<typeof localTools.runTool>[0]) {
  try {
    return await localTools.runTool(input);
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    return undefined;
  }
}

/** Writes one queued "always"/"never" to the person's store; a failure is reported, and the run goes on. */
export async function savePreferenceStep(state: RunState, rule: PreferenceRule): Promise<RunEvent> {
  try {
    await setup.savePreference({ user: rule.by ?? state.input.user, change: rule });
    return { type: 'preferences_saved', count: 1 };
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    return { type: 'preferences_not_saved', count: 1, error: error.cause?.message ?? error.message };
  }
}

/**
 * Waits until a message changes what the run would do next (`moved`: a decision, a reply, the history
 * filling up) or the deadline passes; a passed deadline is told to the state machine as `time_passed`.
 */
export async function waitStep(step: Extract<NextStep, { kind: 'wait' }>, moved: () => boolean): Promise<RunEvent | undefined> {
  const changed = await condition(moved, Math.max(0, step.until - Date.now()));
  return changed ? undefined : { type: 'time_passed' };
}

/**
 * A `delegate_task` call: the sub-agent runs as a child `agentRun` on this task queue, answerable by
 * the same people (its approvals reach this run's status, and the root's, through `childStatus`).
 * Cancelling this run cancels it; its completion and usage come back as the call's result.
 */
export async function runChildStep(state: RunState, call: TurnCall, cancelIsAResult = false): Promise<RunEvent> {
  const { agent, task } = call.input as { agent: string; task: string };
  const workflowId = childWorkflowId(state.workflowId, call.id);
  const started = Date.now();
  try {
    const child = await startChild<AgentRunWorkflow>('agentRun', {
      workflowId,
      args: [
        {
          agent,
          task,
          user: state.input.user,
          approvalTimeoutSeconds: state.input.approvalTimeoutSeconds,
          approvers: effectiveApprovers(state),
          // A sub-agent works under the mode of the run that started it (plan mode never gets here).
          ...(state.mode === 'default' ? {} : { mode: state.mode }),
          // The run's own model and effort hold for its whole tree of sub-agents (each passes them on).
          ...(state.input.model ? { model: state.input.model } : {}),
          ...(state.input.effort ? { effort: state.input.effort } : {}),
          // Issue 34: a sub-agent draws from this run's budget (its share of what is left; see childBudgetOf).
          ...(state.budget ? { budget: childBudgetOf(state) } : {}),
          parent: { workflowId: state.workflowId, rootWorkflowId: state.lineage.rootWorkflowId ?? state.workflowId, depth: state.lineage.depth + 1 },
        },
      ],
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      staticSummary: `${agent} (sub-agent of ${state.workflowId}): ${task.slice(0, 100)}`,
    });
    const result: AgentRunResult = await child.result();
    const outcome: ChildOutcome = { status: result.status, completion: result.completion, usage: result.usage, iterations: result.iterations, output: (result as { output?: unknown }).output };
    return { type: 'child_finished', callId: call.id, outcome, durationMs: Date.now() - started };
  } catch (error) {
    // isCancellation is true for this run's own cancel and for the child's: only the first ends this run.
    const childCancelledElsewhere = cancelIsAResult && error instanceof ChildWorkflowFailure && !CancellationScope.current().consideredCancelled;
    if (isCancellation(error) && !childCancelledElsewhere) throw error;
    if (childCancelledElsewhere) {
      return { type: 'child_finished', callId: call.id, outcome: { error: `the sub-agent's run ${workflowId} was cancelled before it finished` }, durationMs: Date.now() - started };
    }
    const message = error instanceof ChildWorkflowFailure ? (error.cause?.message ?? error.message) : (error as Error).message;
    return { type: 'child_finished', callId: call.id, outcome: { error: message }, durationMs: Date.now() - started };
  }
}

/** A `handoff` call: the other agent's definition, with this run's own shell rules parsed for it. */
export async function handoffStep(state: RunState, { call, agent }: Extract<NextStep, { kind: 'handoff' }>): Promise<RunEvent> {
  try {
    // Parsed, not cast: a worker of another release that sends another shape is refused here, as a failed handoff.
    const answer = await setup.resolveAgent({ agent, commandPatterns: commandPatternsOf(state.input.toolApproval) });
    const resolved = ResolvedAgentSchema.parse(answer);
    learnNexusTools(answer);
    return { type: 'handed_off', callId: call.id, agent: resolved };
  } catch (error) {
    if (isCancellation(error)) throw error;
    return { type: 'handed_off', callId: call.id, agent: { error: (error as ActivityFailure).cause?.message ?? (error as Error).message } };
  }
}

/** The agent's guardrails of one kind, on the task, the completion or the calls; one that cannot run trips. */
export async function guardrailStep(state: RunState, { on, calls }: Extract<NextStep, { kind: 'check_guardrails' }>): Promise<RunEvent> {
  try {
    const results = await setup.checkGuardrails({
      agent: state.agent.name,
      on,
      task: state.input.task,
      completion: on === 'output' ? state.completion : undefined,
      calls: calls.map((c) => ({ callId: c.id, tool: c.name, input: c.input })),
    });
    return { type: 'guardrails_checked', on, results };
  } catch (error) {
    if (isCancellation(error)) throw error;
    const reason = `the guardrails could not run: ${(error as ActivityFailure).cause?.message ?? (error as Error).message}`;
    const results = (on === 'tool' ? calls : [undefined]).map((c) => ({ name: 'guardrails', pass: false, reason, callId: c?.id }));
    return { type: 'guardrails_checked', on, results };
  }
}

/** Calls that would park go to the agent's approval handler first; a failure means "ask". */
export async function judgeStep(state: RunState, { calls }: Extract<NextStep, { kind: 'judge' }>): Promise<RunEvent> {
  try {
    const verdicts = await setup.judgeApprovals({
      agent: state.agent.name,
      task: state.input.task,
      calls: calls.map((c) => ({
        callId: c.id,
        tool: c.name,
        input: c.input,
        reason: c.stage.kind === 'handler' ? c.stage.reason : '',
        context: state.turn?.contextText,
        commands: c.analysis?.commands.map((cmd) => cmd.source),
      })),
    });
    return { type: 'calls_judged', verdicts };
  } catch (error) {
    if (isCancellation(error)) throw error;
    return { type: 'calls_judged', verdicts: [], failure: (error as ActivityFailure).cause?.message ?? (error as Error).message };
  }
}
