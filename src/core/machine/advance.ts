import { classifyTurn } from './classify';
import { isStarted } from './call-records';
import { onControlTool } from './on-control-tool';
import type { RunPhase } from '../../contract/run-records';
import type { RunState } from './run-state';
import type { TransitionContext } from './transition-context';
import { concludeCompletion } from './on-thread';
import { parkedByBudget } from './on-budget';

/**
 * Where the run stands once it has moved as far as it can without the outside world: what it waits
 * for or does next, found by the same walk that moved it. The phase is read from it, and the workflow's
 * next step is built from it (next-step.ts), so neither works the run out again. Calls are named by id:
 * a standing outlives the draft it was read from.
 */
export type Standing =
  | { kind: 'ended' }
  /**
   * A turn is open. Its calls that wait for the tool guardrails, for the approval handler and for a
   * person; its open calls in the model's order, and whether one of them runs.
   */
  | { kind: 'turn'; toGuard: string[]; toJudge: string[]; toDecide: string[]; open: string[]; running: boolean }
  /** Between turns: the agent completed (output guardrails next), the thread is idle, or the model is next. */
  | { kind: 'completed' }
  | { kind: 'idle'; since: string }
  | { kind: 'model' }
  /** The next model call would cross the run's budget (issue 34): parked since `since`. */
  | { kind: 'budget'; since: string };

/**
 * Moves the run forward as far as it can go without the outside world, and says where it then stands:
 * judges new calls, handles control tools when the turn reaches them (in the model's order, after every
 * decision is in and every choice is saved), closes a turn whose calls all have results, and ends the
 * run when the agent completed or the iteration cap is reached.
 */
export function advance(state: RunState, ctx: TransitionContext): Standing {
  if (state.outcome) return { kind: 'ended' };
  const turn = state.turn;
  if (turn) {
    classifyTurn(state, ctx);
    const standing = walkTurn(state, ctx);
    if (standing) return standing;
  }
  concludeCompletion(state, ctx);
  const used = state.iteration - state.thread.iterationBase;
  if (!state.turn && !state.modelCall && !state.outcome && !state.thread.idleSince && !state.completion && used >= state.input.maxIterations) {
    state.outcome = { kind: 'max_iterations' };
    ctx.emit(state, 'agentEnded', { status: 'max_iterations', completion: state.completion, iterations: state.iteration, usage: state.usage });
  }
  if (state.outcome) return { kind: 'ended' };
  // A turn can only be open here when a control tool ended the run; that returned above.
  if (state.thread.idleSince) return { kind: 'idle', since: state.thread.idleSince };
  if (state.completion) return { kind: 'completed' };
  if (parkedByBudget(state, ctx)) return { kind: 'budget', since: state.budget!.parkedAt! };
  return { kind: 'model' };
}

/**
 * One walk over the classified turn: the calls at each stage, then the control tools at the front of
 * the turn once nothing waits for a decision or a save, then what is still open. Undefined when every
 * call has its result and the turn closed.
 */
function walkTurn(state: RunState, ctx: TransitionContext): Standing | undefined {
  const turn = state.turn!;
  const toGuard: string[] = [];
  const toJudge: string[] = [];
  const toDecide: string[] = [];
  for (const call of turn.calls) {
    if (call.result) continue;
    if (call.stage.kind === 'guardrail') toGuard.push(call.id);
    else if (call.stage.kind === 'handler') toJudge.push(call.id);
    else if (call.stage.kind === 'person') toDecide.push(call.id);
  }
  if (toDecide.length === 0 && state.unsavedPreferences.length === 0) {
    for (const call of turn.calls) {
      if (call.result) continue;
      if (call.stage.kind !== 'control' || !onControlTool(state, call, ctx)) break;
    }
  }
  const open = turn.calls.filter((c) => !c.result);
  // The turn closes once every call has its result and the choices made in it are saved.
  if (open.length === 0 && state.unsavedPreferences.length === 0) {
    finishTurn(state, ctx);
    return undefined;
  }
  return { kind: 'turn', toGuard, toJudge, toDecide, open: open.map((c) => c.id), running: open.some(isStarted) };
}

/** All results go back to the model in one message, in the order the model made the calls. */
function finishTurn(state: RunState, ctx: TransitionContext): void {
  const turn = state.turn!;
  state.messages.push({ role: 'user', content: turn.calls.map((c) => c.result!) });
  state.turn = undefined;
  ctx.emit(state, 'iterationCompleted', { completed: state.completion !== undefined, usage: state.usage });
}

/** The phase: what the run waits for or does, from where it stands; the one place that says it. */
export function phaseOf(state: RunState, standing: Standing): RunPhase {
  if (state.phase === 'cancelled') return 'cancelled';
  if (standing.kind === 'ended') return state.outcome!.kind;
  if (standing.kind === 'idle') return 'idle';
  if (standing.kind === 'budget') return 'waiting_budget';
  if (state.compacting) return 'compacting';
  if (state.pendingQuestion) return 'waiting_input';
  if (standing.kind === 'turn' && standing.toDecide.length > 0) return 'waiting_approval';
  // A run whose sub-agents wait for a person waits for that person too.
  const children = Object.values(state.childWaiting);
  if (children.some((w) => w.approvals.length > 0)) return 'waiting_approval';
  if (children.some((w) => w.questions.length > 0)) return 'waiting_input';
  if (children.some((w) => w.budget)) return 'waiting_budget';
  if (state.modelCall?.nextAttemptAt) return 'waiting_for_model';
  return 'running';
}
