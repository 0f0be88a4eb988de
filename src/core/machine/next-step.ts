import type { PreferenceRule } from '../approvals/preference-rules';
import { planCompaction, type CompactionPlan } from './compaction-plan';
import type { RunState, TurnCall } from './run-state';
import { guardrailsOn } from './on-guardrails';
import type { Standing } from './advance';
import { isStarted } from './call-records';
import type { StepEnv, StepFeatures } from './step-env';

export type { StepEnv, StepFeatures } from './step-env';

/**
 * How a call runs: a sub-agent's child workflow; a quick idempotent tool as a local activity inside
 * the workflow task; a tool safe to repeat as an activity with retries; any other tool at most once.
 */
export type ToolLane = 'child' | 'local' | 'retryable' | 'once';

/** A call to start, with its lane. */
export type ToolRun = TurnCall & { lane: ToolLane };

/** What the workflow does next: exactly one of these, built from where the run stands (see stepOf). */
export type NextStep =
  | { kind: 'finish' }
  | { kind: 'continue_as_new' }
  | { kind: 'save_preference'; rule: PreferenceRule }
  /**
   * Start these tool calls (already approved) and sub-agent runs (delegate_task), together.
   * `endsRun`: a result with `shouldContinue: false` ends the run (false for executions from before that).
   */
  | { kind: 'run_tools'; calls: ToolRun[]; endsRun: boolean }
  /** Fetch the definition of the agent a `handoff` call names. */
  | { kind: 'handoff'; call: TurnCall; agent: string }
  /** Run the agent's guardrails on the task, the completion, or these calls. */
  | { kind: 'check_guardrails'; on: 'input' | 'output' | 'tool'; calls: TurnCall[] }
  /** Hand these calls, which would park, to the agent's approval handler. */
  | { kind: 'judge'; calls: TurnCall[] }
  /** Tool calls are running; wait for them. */
  | { kind: 'await_tools' }
  /** Nothing to do until a message arrives or `until` (epoch ms) passes. */
  | { kind: 'wait'; for: 'approval' | 'reply' | 'model_retry' | 'message' | 'budget'; until: number }
  /** `byBudget`: the summary is sized to the token budget (false for executions from before that). */
  | { kind: 'compact'; plan: CompactionPlan; byBudget: boolean }
  /** `waitOutOutage`: an unavailable model is waited out (false: the run fails, as before that patch). */
  | { kind: 'call_model'; waitOutOutage: boolean };

/** Two waits for the same thing are the same step: a wait ends when the step would change. */
export const stepKey = (step: NextStep): string => (step.kind === 'wait' ? `wait:${step.for}` : step.kind);

const isDelegation = (call: TurnCall) => call.stage.kind === 'control' && call.name === 'delegate_task';

/**
 * Read-only calls whose tool is safe to repeat, and sub-agent runs, may run side by side; anything
 * else runs alone, in order.
 */
function concurrentSafe(state: RunState, call: TurnCall): boolean {
  if (isDelegation(call)) return true;
  const tool = state.agent.tools[call.name];
  return call.stage.kind === 'run' && tool !== undefined && tool.scope === 'read' && tool.idempotent;
}

const startable = (call: TurnCall) => call.stage.kind === 'run' || isDelegation(call);

function laneOf(state: RunState, call: TurnCall, features: StepFeatures): ToolLane {
  if (isDelegation(call)) return 'child';
  const tool = state.agent.tools[call.name]!;
  if (!tool.idempotent) return 'once';
  // A tool that says one attempt may take longer than a local activity's 10 s is not quick.
  const quick = tool.quick === true && (tool.timeoutSeconds ?? 0) <= 10;
  return features.localQuickTools && quick ? 'local' : 'retryable';
}

/** The calls that may start now: the next open call in order, plus the read-only ones right after it. */
function startableCalls(state: RunState, open: TurnCall[], features: StepFeatures): TurnCall[] {
  const first = open[0];
  if (!first || !startable(first)) return [];
  if (!(features.concurrentReadTools || isDelegation(first)) || !concurrentSafe(state, first)) return isStarted(first) ? [] : [first];
  const group: TurnCall[] = [];
  for (const call of open) {
    if (!startable(call) || !concurrentSafe(state, call)) break;
    group.push(call);
  }
  return group.filter((c) => !isStarted(c));
}

/**
 * The walk left a turn open that no step can move: a bug of the machine, never of the run's input.
 * The workflow fails the run with this message rather than loop.
 */
export class StuckTurnError extends Error {
  constructor(iteration: number, calls: [string, string, boolean][]) {
    super(`turn ${iteration} cannot move: no call is waiting, running or ready to start (calls as [id, stage, has result]: ${JSON.stringify(calls)}); this is a bug of the run machine, please report it with the run's history`);
    this.name = 'StuckTurnError';
  }
}

/**
 * The workflow's next step, from where the run stands (advance.ts) and what only the workflow knows:
 * the clock, the history's size, and the execution's features. It looks calls up by the ids the walk
 * gave; it does not work out again what they wait for.
 */
export function stepOf(state: RunState, standing: Standing, env: StepEnv): NextStep {
  switch (standing.kind) {
    case 'ended':
      return { kind: 'finish' };
    case 'turn':
      return turnStep(state, standing, env);
    case 'completed':
      // The agent completed; its output guardrails decide whether that stands.
      return { kind: 'check_guardrails', on: 'output', calls: [] };
    case 'idle':
      if (env.historyFull) return { kind: 'continue_as_new' };
      return { kind: 'wait', for: 'message', until: Date.parse(standing.since) + state.input.idleTimeoutSeconds * 1000 };
    case 'model':
      return modelStep(state, env);
    case 'budget':
      if (env.historyFull) return { kind: 'continue_as_new' };
      return { kind: 'wait', for: 'budget', until: Date.parse(standing.since) + state.input.approvalTimeoutSeconds * 1000 };
  }
}

function turnStep(state: RunState, standing: Extract<Standing, { kind: 'turn' }>, env: StepEnv): NextStep {
  const turn = state.turn!;
  const byId = (ids: string[]) => ids.map((id) => turn.calls.find((c) => c.id === id)!);
  const timeoutMs = state.input.approvalTimeoutSeconds * 1000;
  if (standing.toGuard.length > 0) return { kind: 'check_guardrails', on: 'tool', calls: byId(standing.toGuard) };
  if (standing.toJudge.length > 0) return { kind: 'judge', calls: byId(standing.toJudge) };
  if (standing.toDecide.length > 0) {
    if (env.historyFull && !(env.features.handOverWhenCallsDone && standing.running)) return { kind: 'continue_as_new' };
    const until = Math.min(...byId(standing.toDecide).map((c) => Date.parse(c.stage.kind === 'person' ? c.stage.requestedAt : '') + timeoutMs));
    return { kind: 'wait', for: 'approval', until };
  }
  const unsaved = state.unsavedPreferences[0];
  if (unsaved) return { kind: 'save_preference', rule: unsaved };
  const open = byId(standing.open);
  const start = startableCalls(state, open, env.features);
  if (start.length > 0) {
    const calls = start.map((call) => ({ ...call, lane: laneOf(state, call, env.features) }));
    return { kind: 'run_tools', calls, endsRun: env.features.toolResultEndsRun };
  }
  if (standing.running) return { kind: 'await_tools' };
  const front = open[0];
  if (front && front.stage.kind === 'control' && front.name === 'handoff') {
    return { kind: 'handoff', call: front, agent: String((front.input as { agent?: unknown }).agent) };
  }
  if (state.pendingQuestion) {
    if (env.historyFull) return { kind: 'continue_as_new' };
    return { kind: 'wait', for: 'reply', until: Date.parse(state.pendingQuestion.askedAt) + timeoutMs };
  }
  // A turn always has a pending, running, startable or waiting call until it ends (advance closes it).
  throw new StuckTurnError(turn.iteration, turn.calls.map((c) => [c.id, c.stage.kind, !!c.result]));
}

/** Between turns: the input guardrails, a wait while the model is unavailable, a compaction, or the model. */
function modelStep(state: RunState, env: StepEnv): NextStep {
  if (guardrailsOn(state, 'input').length > 0 && !state.guardrailsChecked.input) return { kind: 'check_guardrails', on: 'input', calls: [] };
  const retryAt = state.modelCall?.nextAttemptAt ? Date.parse(state.modelCall.nextAttemptAt) : undefined;
  if (retryAt !== undefined && retryAt > env.now) {
    if (env.historyFull) return { kind: 'continue_as_new' };
    return { kind: 'wait', for: 'model_retry', until: retryAt };
  }
  if (env.historyFull) return { kind: 'continue_as_new' };
  if (!state.modelCall) {
    const plan = planCompaction(state, env.features.compactionByBudget);
    if (plan) return { kind: 'compact', plan, byBudget: env.features.compactionByBudget };
  }
  return { kind: 'call_model', waitOutOutage: env.features.waitOutModelOutage };
}
