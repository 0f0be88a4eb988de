import {
  allHandlersFinished,
  ApplicationFailure,
  CancelledFailure,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  setHandler,
  upsertSearchAttributes,
  ActivityFailure,
} from '@temporalio/workflow';
import { textOf, toolUses } from '../conversation/messages';
import { FailureType } from '../errors';
import { installApprovalHandlers } from './approval-gate';
import { compactIfNeeded } from './compaction';
import { statusQuery } from './definitions';
import { historyIsFull } from './history-budget';
import { emit } from './lifecycle-emitter';
import { modelTurn } from './model-turn';
import { setPhase } from './run-display';
import type { AgentRunInput } from './run-input';
import type { AgentRunResult } from './run-result';
import type { RunState } from './run-state';
import { initialState, parseInput } from './run-state-init';
import { toStatus } from './run-status';
import { AgentNameKey } from './search-attributes';
import { processTurn, startTurn } from './tool-turn';

/** Sent after a turn without a tool call: such a turn is not completion, and counts toward the cap. */
export const CONTINUE_NUDGE =
  'You replied without calling a tool. If the task is done, call complete_task with a summary and status. ' +
  'Otherwise continue working with the tools, or call need_more_information if you need the user.';

/**
 * The agent loop as a Temporal workflow: one model activity per iteration, then the tool calls the
 * model asked for, until the agent calls `complete_task` or the iteration cap is reached. All of the
 * run's state is one `RunState` object; each step below is small and reads or changes only that.
 */
export async function agentRun(rawInput: AgentRunInput): Promise<AgentRunResult> {
  let state: RunState | undefined;
  let startupFailure: string | undefined;
  // Installed first, so the query answers before the agent is resolved and after a failed start.
  setHandler(statusQuery, () => {
    if (state) return toStatus(state);
    if (startupFailure) throw new Error(`The run failed before it started: ${startupFailure}`);
    throw new Error('The run is starting; try again in a moment.');
  });
  let input: ReturnType<typeof parseInput>;
  try {
    input = parseInput(rawInput);
    state = await initialState(input);
  } catch (error) {
    const failure = asRunFailure(error);
    startupFailure = failure.message;
    throw failure;
  }
  installApprovalHandlers(state);
  upsertSearchAttributes([{ key: AgentNameKey, value: state.agent.name }]);
  setPhase(state, state.phase === 'starting' ? 'running' : state.phase);
  if (state.chain.link === 0) emit(state, 'agentStarted', { task: state.input.task, user: state.input.user });

  try {
    return await loop(state, input);
  } catch (error) {
    // Continue-as-new travels as a thrown ContinueAsNew: it ends this link, it is not a failure.
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      setPhase(state, 'cancelled');
      emit(state, 'agentEnded', { status: 'cancelled', usage: state.usage });
      throw error;
    }
    const failure = asRunFailure(error);
    state.lastError = failure.message;
    setPhase(state, 'failed');
    emit(state, 'errorOccurred', { message: failure.message, type: failure.type });
    emit(state, 'agentEnded', { status: 'failed', error: failure.message, usage: state.usage });
    throw failure;
  }
}

async function loop(state: RunState, input: ReturnType<typeof parseInput>): Promise<AgentRunResult> {
  const full = () => historyIsFull(state.input.historyBudget);
  for (;;) {
    if (state.turn) {
      const outcome = await processTurn(state, full);
      if (outcome.kind === 'continue_as_new') return handOver(state, input);
      emit(state, 'iterationCompleted', { completed: state.completion !== undefined, usage: state.usage });
      if (state.completion) return finish(state, 'completed');
      continue;
    }
    if (state.iteration >= state.input.maxIterations) return finish(state, 'max_iterations');
    if (full()) return handOver(state, input);
    await compactIfNeeded(state);

    state.iteration += 1;
    emit(state, 'iterationStarted', {});
    const { message } = await modelTurn(state);
    const calls = toolUses(message);
    if (calls.length === 0) {
      state.messages.push({ role: 'user', content: CONTINUE_NUDGE });
      emit(state, 'iterationCompleted', { completed: false, toolCalls: 0, usage: state.usage });
      continue;
    }
    startTurn(state, calls, textOf(message));
  }
}

function finish(state: RunState, status: AgentRunResult['status']): AgentRunResult {
  setPhase(state, status === 'completed' ? 'completed' : 'max_iterations');
  emit(state, 'agentEnded', { status, completion: state.completion, iterations: state.iteration, usage: state.usage });
  const lastAssistant = [...state.messages].reverse().find((m) => m.role === 'assistant');
  return {
    status,
    completion: state.completion,
    iterations: state.iteration,
    usage: state.usage,
    tasks: state.tasks,
    agent: state.agent.name,
    workflowId: state.workflowId,
    carryOver: {
      savedSummaries: state.savedSummaries,
      conversationSummary: state.conversationSummary,
      lastAssistantText: lastAssistant ? textOf(lastAssistant).slice(0, 4_000) : undefined,
    },
  };
}

/** Continues as new with the whole state as the next link's checkpoint (same workflow id). */
async function handOver(state: RunState, input: ReturnType<typeof parseInput>): Promise<never> {
  await condition(allHandlersFinished);
  const { checkpoint: _previous, ...rest } = input;
  return continueAsNew<typeof agentRun>({ ...rest, checkpoint: state });
}

/**
 * Every way a run can fail ends as a non-retryable ApplicationFailure that says what went wrong; an
 * unexpected error must not become a workflow task failure that Temporal retries forever.
 */
function asRunFailure(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure) {
    const cause = error.cause;
    return ApplicationFailure.create({ type: cause.type ?? undefined, nonRetryable: true, message: cause.message, cause: error });
  }
  if (error instanceof CancelledFailure) throw error;
  const message = error instanceof Error ? error.message : String(error);
  return ApplicationFailure.create({ type: FailureType.RunFailed, nonRetryable: true, message, cause: error instanceof Error ? error : undefined });
}
