// Input tokens billed for one long run, with and without prompt caching. A 50-iteration run of the
// built-in `general` agent (each turn reads a ~2 KB file and says a sentence about it) against a fake
// Messages API that applies Anthropic's documented prompt-caching rules (prefix match up to each
// `cache_control` breakpoint, at most 4, 20-block lookback, 1,024-token minimum, 5-minute or 1-hour
// lifetime; test/support/prompt-cache-simulator.ts). Billed input is priced as documented: uncached
// input 1×, cache writes 1.25× (2× with the 1-hour cache), cache reads 0.1×.
//
// A second part runs 30 iterations with thinking (each reply starts with a signed thinking block that
// goes back verbatim in every later request) and the same run without it, with and without caching:
// thinking blocks must not break the cached prefix, so the thinking run's cache reads per turn must be
// at least 90% of the run without thinking.
//
//   npm run bench:cost -- [--iterations 50] [--thinking-iterations 30]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startRun } from '../src/client/start-run';
import type { TokenUsage } from '../src/contract/messages';
import { createAgentWorker } from '../src/runtime/worker-setup/create-agent-worker';
import { reply, startFakeAnthropic, text, thinking, toolCall } from '../test/support/fake-anthropic';
import { builtinAgents } from '../src/runtime/agents/builtin-agents';
import type { AgentDefinitionInput } from '../src/contract/agent-definition';
import { report, sizeArg, startBenchEnv, table, uniqueId, type BenchEnv } from './support/bench-env';

const ITERATIONS = sizeArg('iterations', 50);
const THINKING_ITERATIONS = sizeArg('thinking-iterations', 30);
const general = builtinAgents.find((a) => a.name === 'general')!;
/** `general` with thinking on, as an agent would set it (the fake answers with thinking blocks either way). */
const thinkingGeneral: AgentDefinitionInput = { ...general, name: 'general-thinking', maxTokens: 8_192, thinking: { type: 'enabled', budget_tokens: 4_096 } };
const THOUGHT = (i: number) => `Pass ${i}: the notes were unchanged last time; I should read them again and compare the items one by one. `.repeat(4);
const MODES = ['off', '5m', '1h'] as const;
type Mode = (typeof MODES)[number];
const WRITE_PRICE: Record<Mode, number> = { off: 1, '5m': 1.25, '1h': 2 };

const NOTE = Array.from({ length: 40 }, (_, i) => `- item ${i}: the quarterly numbers for region ${i % 7} were checked and filed.`).join('\n');

interface RunShape {
  iterations: number;
  thinking: boolean;
}

async function runOnce(env: BenchEnv, mode: Mode, shape: RunShape = { iterations: ITERATIONS, thinking: false }): Promise<{ usage: TokenUsage; requests: number }> {
  const fake = await startFakeAnthropic({ promptCache: true });
  const workspace = mkdtempSync(path.join(tmpdir(), 'bench-cost-'));
  writeFileSync(path.join(workspace, 'notes.md'), NOTE);
  const taskQueue = uniqueId('bench-cost');
  const worker = await createAgentWorker({
    // As before the audit log was on by default: the figures stay comparable with earlier runs.
    auditLog: false,
    address: env.server.address,
    taskQueue,
    workspaceRoot: workspace,
    workflowBundle: env.bundle,
    env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: fake.baseUrl, AGENT_PROMPT_CACHE: mode },
    agents: [general, thinkingGeneral],
  });
  try {
    const task = uniqueId('cost');
    const said = (i: number) => text(`Checking the notes again (pass ${i}) to make sure nothing changed since the last look.`);
    const turn = (i: number) =>
      shape.thinking ? reply(thinking(THOUGHT(i)), said(i), toolCall('read_file', { path: 'notes.md' })) : reply(said(i), toolCall('read_file', { path: 'notes.md' }));
    fake.script(task, [
      ...Array.from({ length: shape.iterations - 1 }, (_, i) => turn(i + 1)),
      reply(toolCall('complete_task', { summary: 'The notes are unchanged.', status: 'success' })),
    ]);
    const result = await worker.worker.runUntil(async () => {
      const agent = shape.thinking ? thinkingGeneral.name : 'general';
      const handle = await startRun(worker.client, { agent, task, maxIterations: shape.iterations + 5 }, { taskQueue });
      return handle.result();
    });
    if (fake.errors.length > 0) throw new Error(`the fake API saw unscripted requests: ${fake.errors.join('; ')}`);
    return { usage: result.usage, requests: fake.requestsFor(task).length };
  } finally {
    await worker.close();
    await fake.close();
  }
}

/** The same run with and without thinking, each with caching off and on (5 minutes). */
async function thinkingSection(env: BenchEnv): Promise<{ body: string; readShare: number }> {
  const runs: ({ thinks: boolean; mode: Mode; usage: TokenUsage; requests: number })[] = [];
  for (const thinks of [false, true]) {
    for (const mode of ['off', '5m'] as const) runs.push({ thinks, mode, ...(await runOnce(env, mode, { iterations: THINKING_ITERATIONS, thinking: thinks })) });
  }
  const readsPerTurn = (thinks: boolean) => {
    const run = runs.find((r) => r.thinks === thinks && r.mode === '5m')!;
    return run.usage.cacheReadInputTokens / run.requests;
  };
  const readShare = readsPerTurn(true) / readsPerTurn(false);
  const rows = runs.map(({ thinks, mode, usage, requests }) => {
    const billedInput = usage.inputTokens + WRITE_PRICE[mode] * usage.cacheCreationInputTokens + 0.1 * usage.cacheReadInputTokens;
    return [thinks ? 'on' : 'off', mode === 'off' ? 'off' : 'on, 5m', requests, usage.inputTokens, usage.cacheCreationInputTokens, usage.cacheReadInputTokens, Math.round(usage.cacheReadInputTokens / requests), Math.round(billedInput)];
  });
  const body = [
    `## With thinking`,
    '',
    `${THINKING_ITERATIONS} iterations; with thinking, each reply starts with a signed thinking block (~450 characters) that goes back`,
    'verbatim in every later request. Cache reads per turn with thinking must be at least 90% of the run without it.',
    '',
    table(['thinking', 'prompt caching', 'model calls', 'uncached input', 'cache writes', 'cache reads', 'cache reads per turn', 'billed input (token-equivalents)'], rows),
    '',
    `Cache reads per turn with thinking: ${(readShare * 100).toFixed(1)}% of the run without thinking.`,
  ].join('\n');
  return { body, readShare };
}

async function main(): Promise<void> {
  const env = await startBenchEnv();
  try {
    const results = new Map<Mode, { usage: TokenUsage; requests: number }>();
    for (const mode of MODES) results.set(mode, await runOnce(env, mode));
    const billed = (mode: Mode) => {
      const u = results.get(mode)!.usage;
      return u.inputTokens + WRITE_PRICE[mode] * u.cacheCreationInputTokens + 0.1 * u.cacheReadInputTokens;
    };
    const baseline = billed('off');
    const rows = MODES.map((mode) => {
      const { usage, requests } = results.get(mode)!;
      const prompt = usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
      return [
        mode === 'off' ? 'off (no cache_control)' : `on, ${mode} cache`,
        requests,
        prompt,
        usage.inputTokens,
        usage.cacheCreationInputTokens,
        usage.cacheReadInputTokens,
        Math.round(billed(mode)),
        mode === 'off' ? '—' : `${(100 * (1 - billed(mode) / baseline)).toFixed(1)}%`,
      ];
    });
    const body = [
      `One run of ${ITERATIONS} iterations (the built-in general agent, a ~2 KB tool result per turn). Tokens are the fake's`,
      'estimate (a quarter of the JSON length of each block); billed input = uncached + cache writes × 1.25 (× 2 for the',
      '1-hour cache) + cache reads × 0.1, as Anthropic prices them. AGENT_PROMPT_CACHE selects the mode.',
      '',
      table(['prompt caching', 'model calls', 'prompt tokens', 'uncached input', 'cache writes', 'cache reads', 'billed input (token-equivalents)', 'saved'], rows),
    ].join('\n');
    const withThinking = await thinkingSection(env);
    report('cost', 'npm run bench:cost', `${body}\n\n${withThinking.body}`);
    const saved = 1 - billed('5m') / baseline;
    if (saved < 0.75) {
      console.error(`Below the target: caching saved ${(saved * 100).toFixed(1)}% of billed input tokens (target: at least 75%).`);
      process.exitCode = 1;
    }
    if (withThinking.readShare < 0.9) {
      console.error(`Thinking broke the cached prefix: cache reads per turn were ${(withThinking.readShare * 100).toFixed(1)}% of the run without thinking (target: at least 90%).`);
      process.exitCode = 1;
    }
  } finally {
    await env.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
