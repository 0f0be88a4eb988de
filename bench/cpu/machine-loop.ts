// The workflow thread's own share of bench:cpu, without Temporal: the pure state machine driven
// through the loop agentRun drives (step_wanted → model_replied → step_wanted → tool_finished), with
// the CPU of the transitions alone (process.cpuUsage). On a shared machine this is far steadier than
// bench:cpu's /proc counts, so it shows what a change to src/core costs or saves.
//
//   npx tsx bench/cpu/machine-loop.ts [--iterations 200] [--output-bytes 40] [--repeat 5]
import { ContextBudgetSchema } from '../../src/contract/agent-definition';
import { Machine, runState } from '../../test/core/machine/state-factory';
import { sizeArg } from '../support/bench-env';

const ITERATIONS = sizeArg('iterations', 200);
const OUTPUT_BYTES = sizeArg('output-bytes', 40);
const REPEAT = sizeArg('repeat', 5);

function oneRun(): number {
  const base = runState();
  // A window large enough that no compaction interrupts the loop: this measures the steady turn.
  const m = new Machine(runState({ input: { ...base.input, maxIterations: ITERATIONS + 10 }, agent: { ...base.agent, maxIterations: ITERATIONS + 10, context: ContextBudgetSchema.parse({ windowTokens: 10_000_000 }) } }));
  const output = 'x'.repeat(OUTPUT_BYTES);
  const started = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i += 1) {
    const step = m.take();
    if (step.kind !== 'call_model') throw new Error(`iteration ${i}: expected call_model, got ${step.kind}`);
    const message = { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: `t${i}`, name: 'list_files', input: {} }] };
    m.send({ type: 'model_replied', message, usage: { inputTokens: 100 + i * 20, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }, promptChars: 400 + i * 70, storedCount: m.state.messages.length + 1, storedTag: 't' });
    const tools = m.take();
    if (tools.kind !== 'run_tools') throw new Error(`iteration ${i}: expected run_tools, got ${tools.kind}`);
    m.send({ type: 'tool_finished', callId: `t${i}`, result: { success: true, output, shouldContinue: true }, durationMs: 1 });
    m.now += 30;
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / ITERATIONS;
}

const samples = Array.from({ length: REPEAT + 1 }, oneRun).slice(1); // the first run warms the JIT
samples.sort((a, b) => a - b);
console.log(`machine loop, ${ITERATIONS} iterations, ${OUTPUT_BYTES}-byte outputs: CPU ms / iteration min ${samples[0]!.toFixed(3)}, median ${samples[Math.floor(samples.length / 2)]!.toFixed(3)} (${REPEAT} runs)`);
