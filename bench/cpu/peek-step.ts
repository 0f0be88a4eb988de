// The wait condition's cost on a parked run (issue 37, lead b): what one activation of a run parked
// on an approval spends asking whether its step moved. `transition` (the full step_wanted transition,
// two immer passes: what peekStep cost before), `peekStep` (one pass), and the wait's memo (the state
// did not change: no peek at all). CPU by process.cpuUsage, best of 5 rounds.
//
//   npx tsx bench/cpu/peek-step.ts [--rounds 20000]
import { transition, peekStep } from '../../src/core/machine/transition';
import { Machine, call, runState } from '../../test/core/machine/state-factory';
import { sizeArg } from '../support/bench-env';

const ROUNDS = sizeArg('rounds', 20_000);
const base = runState();
const m = new Machine(runState({ input: { ...base.input, maxIterations: 100 }, agent: { ...base.agent, maxIterations: 100 } }));
for (let i = 0; i < 20; i += 1) {
  m.take();
  m.reply(call(`r${i}`, 'list_files', {}));
  m.take();
  m.send({ type: 'tool_finished', callId: `r${i}`, result: { success: true, output: 'a\nb', shouldContinue: true }, durationMs: 1 });
}
m.take();
m.reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
if (m.state.phase !== 'waiting_approval') throw new Error(`expected a parked run, got ${m.state.phase}`);
const env = { now: m.now, runId: 'r1', historyFull: false, features: m.features };

function micros(fn: () => void): number {
  const best: number[] = [];
  for (let r = 0; r < 5; r += 1) {
    const started = process.cpuUsage();
    for (let i = 0; i < ROUNDS; i += 1) fn();
    const used = process.cpuUsage(started);
    best.push((used.user + used.system) / ROUNDS);
  }
  return Math.min(...best);
}

const state = m.state;
let seen: unknown;
const memo = () => {
  if (seen === state) return;
  seen = state;
  peekStep(state, env);
};
console.log(`parked run, 20 iterations behind it: µs per condition check (best of 5 × ${ROUNDS})`);
console.log(`  full step_wanted transition (the peek before): ${micros(() => transition(state, { type: 'step_wanted' }, env)).toFixed(2)}`);
console.log(`  peekStep, one pass:                            ${micros(() => peekStep(state, env)).toFixed(2)}`);
console.log(`  the wait's memo, state unchanged:              ${micros(memo).toFixed(3)}`);
