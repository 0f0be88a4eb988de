import { classifyTurn } from './classify';
import { pendingCalls } from './decision-rules';
import { onControlTool } from './on-control-tool';
import type { RunPhase } from '../../contract/run-records';
import type { RunState } from './run-state';
import type { TransitionContext } from './transition-context';
import { concludeCompletion } from './on-thread';

/**
 * Moves the run forward as far as it can go without the outside world: judges new calls, handles
 * control tools when the turn reaches them (in the model's order, after every decision is in and
 * every choice is saved), closes a turn whose calls all have results, and ends the run when the
 * agent completed or the iteration cap is reached.
 */
export function settle(state: RunState, ctx: TransitionContext): void {
  if (state.outcome) return;
  const turn = state.turn;
  if (turn) {
    classifyTurn(state, ctx);
    if (pendingCalls(state).length === 0 && state.unsavedPreferences.length === 0) {
      for (const call of turn.calls) {
        if (call.result) continue;
        if (call.stage.kind !== 'control' || !onControlTool(state, call, ctx)) break;
      }
    }
    // The turn closes once every call has its result and the choices made in it are saved.
    if (turn.calls.every((c) => c.result) && state.unsavedPreferences.length === 0) finishTurn(state, ctx);
  }
  concludeCompletion(state, ctx);
  const used = state.iteration - state.thread.iterationBase;
  if (!state.turn && !state.modelCall && !state.outcome && !state.thread.idleSince && !state.completion && used >= state.input.maxIterations) {
    state.outcome = { kind: 'max_iterations' };
    ctx.emit(state, 'agentEnded', { status: 'max_iterations', completion: state.completion, iterations: state.iteration, usage: state.usage });
  }
}

/** All results go back to the model in one message, in the order the model made the calls. */
function finishTurn(state: RunState, ctx: TransitionContext): void {
  const turn = state.turn!;
  state.messages.push({ role: 'user', content: turn.calls.map((c) => c.result!) });
  state.turn = undefined;
  ctx.emit(state, 'iterationCompleted', { completed: state.completion !== undefined, usage: state.usage });
}

/** The phase, derived from the state alone: the one place that says what a run is doing. */
export function derivePhase(state: RunState): RunPhase {
  if (state.phase === 'cancelled') return 'cancelled';
  if (state.outcome) return state.outcome.kind;
  if (state.thread.idleSince) return 'idle';
  if (state.compacting) return 'compacting';
  if (state.pendingQuestion) return 'waiting_input';
  if (pendingCalls(state).length > 0) return 'waiting_approval';
  // A run whose sub-agents wait for a person waits for that person too.
  const children = Object.values(state.childWaiting);
  if (children.some((w) => w.approvals.length > 0)) return 'waiting_approval';
  if (children.some((w) => w.questions.length > 0)) return 'waiting_input';
  if (state.modelCall?.nextAttemptAt) return 'waiting_for_model';
  return 'running';
}
