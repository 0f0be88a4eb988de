// The model activity's own work around the request, per call, over a growing conversation (issue 37,
// the main thread's share): building the request, putting attachments back, the request's
// fingerprint for the history, and the relay token for the heartbeat. Pure functions, no Temporal and
// no HTTP, timed with process.cpuUsage, so the figures hold at loads where bench:cpu's cannot resolve
// a tenth of a millisecond. Run it from a checkout of another commit to compare (it imports nothing
// newer than those four functions). bench/results/cpu-main-thread.md quotes it.
//
//   npx tsx bench/model-call-cpu.ts [--iterations 200] [--rounds 5]
import type Anthropic from '@anthropic-ai/sdk';
import type { ConversationMessage } from '../src/contract/messages';
import { createAgentRegistry } from '../src/runtime/agents/agent-registry';
import { MemoryConversationStore } from '../src/runtime/conversation/conversation-store';
import { withAttachments } from '../src/runtime/conversation/tool-attachments';
import { RelayTokens } from '../src/runtime/live/relay-tokens';
import { buildModelRequest } from '../src/runtime/model/model-request';
import { requestFingerprint } from '../src/runtime/model/request-fingerprint';
import { builtinTools } from '../src/runtime/tools/builtin';
import { sizeArg, table } from './support/bench-env';
import { benchAgent } from './support/bench-tools';

const ITERATIONS = sizeArg('iterations', 200);
const ROUNDS = sizeArg('rounds', 5);
/** Calls left out at the start of each round (the JIT), as bench:cpu leaves out its warm-up. */
const WARMUP = 20;

const STEPS = ['build the request', 'withAttachments', 'requestFingerprint', 'relay token'] as const;
type Step = (typeof STEPS)[number];

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** One run of ITERATIONS model calls (bench:cpu's small-tool scenario: list_files, then its result); ms per call by step. */
async function round(): Promise<Record<Step, number>> {
  const registry = createAgentRegistry([benchAgent('cpu-small', ['list_files'])], builtinTools);
  const agent = registry.agents.get('cpu-small')!;
  const store = new MemoryConversationStore();
  const tokens = new RelayTokens();
  const models = { fast: 'model-fast', balanced: 'model-balanced', powerful: 'model-powerful' };
  const messages: ConversationMessage[] = [{ role: 'user', content: 'cpu bench task' }];
  const spent = Object.fromEntries(STEPS.map((step) => [step, 0])) as Record<Step, number>;
  const timed = async <T>(step: Step, i: number, fn: () => T | Promise<T>): Promise<T> => {
    const start = cpuMs();
    const value = await fn();
    if (i >= WARMUP) spent[step] += cpuMs() - start;
    return value;
  };
  for (let i = 0; i < ITERATIONS; i += 1) {
    const request = await timed('build the request', i, () => buildModelRequest({ registry, agent, messages, contract: undefined, cache: '5m', models }));
    request.messages = await timed('withAttachments', i, () => withAttachments(request.messages, store, 'run-1'));
    await timed('requestFingerprint', i, () => requestFingerprint(request as Anthropic.MessageCreateParams));
    await timed('relay token', i, () => tokens.tokenFor('default', 'run-1'));
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_s${i}_0`, name: 'list_files', input: {} }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_s${i}_0`, content: 'README.md\npackage.json\nsrc/' }] });
  }
  return Object.fromEntries(STEPS.map((step) => [step, spent[step] / (ITERATIONS - WARMUP)])) as Record<Step, number>;
}

async function run(): Promise<void> {
  const rounds: Record<Step, number>[] = [];
  for (let r = 0; r < ROUNDS; r += 1) rounds.push(await round());
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rows = STEPS.map((step) => {
    const values = rounds.map((r) => r[step]);
    return [step, median(values).toFixed(4), Math.min(...values).toFixed(4), Math.max(...values).toFixed(4)];
  });
  console.log(`model call's request-side work, ms of CPU per call, ${ITERATIONS} calls (the first ${WARMUP} left out), ${ROUNDS} rounds\n`);
  console.log(table(['step', 'median', 'min', 'max'], rows));
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
