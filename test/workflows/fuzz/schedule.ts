// The schedule generator: a seed in, a schedule out, and nothing else. A schedule says what the
// scripted model answers (tool calls, questions, sub-agents, failures and slow replies), how small
// the run's history budget is, and which messages the harness sends at which moment of the run's
// life. It is pure: the same seed gives the same schedule, so `npm run fuzz -- --seed N` replays it.
// (The server's timing is real, so the interleaving a schedule meets can still differ between runs.)
import type { PermissionMode } from '../../../src/contract/permission-mode';

/** mulberry32: small, fast and good enough to spread schedules; the seed is the whole state. */
export class Prng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Picks by weight: `[[item, weight], ...]`. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let roll = this.next() * items.reduce((sum, [, w]) => sum + w, 0);
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return items[items.length - 1]![0];
  }
}

export type Channel = 'signal' | 'update';
export type CanaryName = 'canary_write' | 'canary_edit' | 'canary_read';
/** What a canary call does when it runs: its job, a failed result, a throw (first attempt), or a hang past its timeout (first attempt). */
export type ToolFault = 'none' | 'error' | 'throw' | 'hang';
export type PlannedCall =
  | { tool: CanaryName; fault: ToolFault }
  | { tool: 'ask' }
  /** delegate_task to the sub-agent, whose own turns are `childTurns`. */
  | { tool: 'delegate' };
/** One reply of the model: tool calls, or `complete_task`. */
export type Turn = { calls: PlannedCall[] } | { complete: true };
/** What the model API does before a reply: failures served first, then the reply, possibly slow. */
export interface ModelFault {
  failures: ('500' | '529' | 'disconnect')[];
  slowMs: number;
}

export type Action =
  | { kind: 'decide'; channel: Channel; decision: 'approve' | 'reject' | 'approve_always'; edit: boolean; target: 'pending' | 'bogus' }
  | { kind: 'decideBatch'; decision: 'approve' | 'reject'; edit: boolean }
  | { kind: 'reply'; channel: Channel }
  | { kind: 'followUp'; channel: Channel; count: number }
  | { kind: 'setMode'; mode: PermissionMode }
  | { kind: 'cancel' }
  /** An insider cancels a sub-agent's run directly; decisions for its calls may still reach the parent. */
  | { kind: 'cancelChild' }
  | { kind: 'close'; channel: Channel }
  | { kind: 'restartWorker' }
  /** Ignored approval signals for calls that do not exist: they fill the history towards the budget. */
  | { kind: 'pad'; count: number }
  | { kind: 'query' };

/** When a step's actions go out: at once, at the next continue-as-new, when something waits, or after a pause. */
export type Trigger = { on: 'now' } | { on: 'link' } | { on: 'approval' } | { on: 'question' } | { on: 'idle' } | { on: 'sleep'; ms: number };

export interface Step {
  trigger: Trigger;
  /** Sent together, none awaited before the next is sent. */
  actions: Action[];
}

export type Shape = 'task' | 'thread' | 'team';

export interface Schedule {
  seed: number;
  shape: Shape;
  /** The run's `historyBudget.maxEvents` (50 is the least the input allows). */
  maxEvents: number;
  turns: Turn[];
  /** The sub-agent's turns, for a `team` schedule. */
  childTurns: Turn[];
  /** By reply index (the number of assistant messages a request carries). */
  modelFaults: Record<number, ModelFault>;
  childModelFaults: Record<number, ModelFault>;
  /** Whether the schedule restarts its worker, and so needs one of its own. */
  restarts: boolean;
  steps: Step[];
}

const channel = (rng: Prng): Channel => (rng.chance(0.5) ? 'signal' : 'update');

function toolFault(rng: Prng, tool: CanaryName): ToolFault {
  if (!rng.chance(0.15)) return 'none';
  // Only the activity lane hangs: a local activity's hang costs its whole 10 s timeout.
  return rng.weighted<ToolFault>([['error', 3], ['throw', 3], ['hang', tool === 'canary_write' ? 1 : 0]]);
}

function workTurn(rng: Prng, options: { ask: boolean; delegate: boolean }): Turn {
  if (options.delegate) return { calls: [{ tool: 'delegate' }] };
  if (options.ask && rng.chance(0.25)) return { calls: [{ tool: 'ask' }] };
  const calls: PlannedCall[] = [];
  for (let i = rng.int(1, 2); i > 0; i--) {
    const tool = rng.weighted<CanaryName>([['canary_write', 4], ['canary_edit', 3], ['canary_read', 3]]);
    calls.push({ tool, fault: toolFault(rng, tool) });
  }
  return { calls };
}

function turnsFor(rng: Prng, shape: Shape): { turns: Turn[]; childTurns: Turn[] } {
  const turns: Turn[] = [];
  const segments = shape === 'thread' ? rng.int(2, 4) : 1;
  const delegateAt = shape === 'team' ? rng.int(0, 1) : -1;
  for (let s = 0; s < segments; s++) {
    const work = rng.int(shape === 'thread' && s > 0 ? 0 : 1, 4);
    for (let w = 0; w < work; w++) turns.push(workTurn(rng, { ask: true, delegate: turns.length === delegateAt }));
    turns.push({ complete: true });
  }
  const childTurns: Turn[] = [];
  if (shape === 'team') {
    for (let w = rng.int(1, 3); w > 0; w--) childTurns.push(childTurns.length === 0 ? { calls: [{ tool: 'canary_write', fault: 'none' }] } : workTurn(rng, { ask: true, delegate: false }));
    childTurns.push({ complete: true });
  }
  return { turns, childTurns };
}

function modelFaults(rng: Prng, replies: number): Record<number, ModelFault> {
  const faults: Record<number, ModelFault> = {};
  for (let i = 0; i < replies + 4; i++) {
    const failures = rng.chance(0.15) ? Array.from({ length: rng.int(1, 2) }, () => rng.pick(['500', '529', 'disconnect'] as const)) : [];
    const slowMs = rng.chance(0.2) ? rng.int(200, 1_500) : 0;
    if (failures.length > 0 || slowMs > 0) faults[i] = { failures, slowMs };
  }
  return faults;
}

/** An action that fits the moment the trigger marks; anything may be sent at any time, but these find the edges. */
function actionFor(rng: Prng, trigger: Trigger['on'], shape: Shape, restarts: boolean): Action {
  const thread = shape === 'thread';
  const decide = (): Action =>
    rng.chance(0.2)
      ? { kind: 'decideBatch', decision: rng.chance(0.8) ? 'approve' : 'reject', edit: rng.chance(0.3) }
      : { kind: 'decide', channel: channel(rng), decision: rng.weighted([['approve', 6], ['reject', 2], ['approve_always', 1]] as const), edit: rng.chance(0.3), target: rng.chance(0.9) ? 'pending' : 'bogus' };
  const followUp = (): Action => ({ kind: 'followUp', channel: channel(rng), count: rng.chance(0.2) ? rng.int(5, 15) : 1 });
  const anything = (): Action =>
    rng.weighted<() => Action>([
      [decide, 4],
      [() => ({ kind: 'reply', channel: channel(rng) }), 2],
      [followUp, thread ? 3 : 1],
      [() => ({ kind: 'setMode', mode: rng.pick(['default', 'acceptEdits', 'plan', 'dontAsk'] as const) }), 1],
      [() => ({ kind: 'query' }), 1],
      [() => ({ kind: 'pad', count: rng.int(2, 12) }), 1],
      [() => ({ kind: 'close', channel: channel(rng) }), thread ? 0.5 : 0.1],
      [() => ({ kind: 'cancel' }), 0.15],
      [() => ({ kind: 'cancelChild' }), shape === 'team' ? 0.5 : 0],
      [() => ({ kind: 'restartWorker' }), restarts ? 1 : 0],
    ])();
  switch (trigger) {
    case 'approval':
      return rng.chance(0.75) ? decide() : anything();
    case 'question':
      return rng.chance(0.75) ? { kind: 'reply', channel: channel(rng) } : anything();
    case 'idle':
      return rng.chance(0.8) ? followUp() : { kind: 'close', channel: channel(rng) };
    default:
      return anything();
  }
}

function triggerFor(rng: Prng, shape: Shape, turns: Turn[]): Trigger {
  const asks = turns.some((t) => 'calls' in t && t.calls.some((c) => c.tool === 'ask'));
  return rng.weighted<Trigger>([
    [{ on: 'approval' }, 4],
    [{ on: 'question' }, asks ? 2 : 0],
    [{ on: 'link' }, 3],
    [{ on: 'idle' }, shape === 'thread' ? 3 : 0],
    [{ on: 'sleep', ms: rng.int(20, 600) }, 2],
    [{ on: 'now' }, 1],
  ]);
}

/** The schedule of one seed. */
export function generateSchedule(seed: number): Schedule {
  const rng = new Prng(seed);
  const shape = rng.weighted<Shape>([['task', 4], ['thread', 3], ['team', 3]]);
  const { turns, childTurns } = turnsFor(rng, shape);
  const maxEvents = rng.weighted([[50, 4], [60, 3], [80, 2], [150, 1], [1_000, 1]] as const);
  const restarts = rng.chance(0.2);
  const steps: Step[] = [];
  // The first edge: messages sent the moment the run starts, before its first workflow task ran.
  if (rng.chance(0.6)) {
    const startAction = rng.weighted<() => Action>([
      [() => ({ kind: 'setMode', mode: rng.pick(['default', 'acceptEdits'] as const) }), 2],
      [() => ({ kind: 'query' }), 1],
      [() => ({ kind: 'followUp', channel: 'update', count: rng.chance(0.3) ? rng.int(2, 15) : 1 }), shape === 'thread' ? 3 : 1],
      [() => ({ kind: 'decide', channel: 'update', decision: 'approve', edit: false, target: 'bogus' }), 1],
    ]);
    steps.push({ trigger: { on: 'now' }, actions: Array.from({ length: rng.int(1, 2) }, () => startAction()) });
  }
  for (let n = rng.int(3, 9); n > 0; n--) {
    const trigger = triggerFor(rng, shape, [...turns, ...childTurns]);
    const actions = Array.from({ length: rng.chance(0.3) ? 2 : 1 }, () => actionFor(rng, trigger.on, shape, restarts));
    // Decisions while the history is about to fill: the next continue-as-new lands while they are handled.
    if (trigger.on === 'approval' && rng.chance(0.3)) actions.unshift({ kind: 'pad', count: rng.int(3, 15) });
    steps.push({ trigger, actions });
  }
  return { seed, shape, maxEvents, turns, childTurns, modelFaults: modelFaults(rng, turns.length), childModelFaults: modelFaults(rng, childTurns.length), restarts, steps };
}

/** One line per step, for a failure report. */
export function describeSchedule(schedule: Schedule): string {
  const turn = (t: Turn) => ('complete' in t ? 'complete' : t.calls.map((c) => ('fault' in c && c.fault !== 'none' ? `${c.tool}!${c.fault}` : c.tool)).join('+'));
  const lines = [
    `seed ${schedule.seed}: ${schedule.shape}, maxEvents ${schedule.maxEvents}${schedule.restarts ? ', own worker (restarts)' : ''}`,
    `  model: ${schedule.turns.map(turn).join(' | ')}`,
  ];
  if (schedule.childTurns.length > 0) lines.push(`  sub-agent: ${schedule.childTurns.map(turn).join(' | ')}`);
  const faults = Object.entries(schedule.modelFaults).map(([i, f]) => `#${i}:${[...f.failures, ...(f.slowMs ? [`slow ${f.slowMs}ms`] : [])].join(',')}`);
  if (faults.length > 0) lines.push(`  model faults: ${faults.join(' ')}`);
  for (const step of schedule.steps) {
    const on = step.trigger.on === 'sleep' ? `sleep ${step.trigger.ms}ms` : step.trigger.on;
    lines.push(`  on ${on}: ${step.actions.map((a) => JSON.stringify(a)).join(', ')}`);
  }
  return lines.join('\n');
}
