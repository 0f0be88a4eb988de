// Input tokens billed for one long run, with and without prompt caching. A 50-iteration run of the
// built-in `general` agent (each turn reads a ~2 KB file and says a sentence about it) against a fake
// Messages API that applies Anthropic's documented prompt-caching rules (prefix match up to each
// `cache_control` breakpoint, at most 4, 20-block lookback, 1,024-token minimum, 5-minute or 1-hour
// lifetime; test/support/prompt-cache-simulator.ts). Billed input is priced as documented: uncached
// input 1×, cache writes 1.25× (2× with the 1-hour cache), cache reads 0.1×.
//
//   npm run bench:cost -- [--iterations 50]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startRun } from '../src/client/start-run';
import type { TokenUsage } from '../src/contract/messages';
import { createAgentWorker } from '../src/runtime/worker-setup/create-agent-worker';
import { reply, startFakeAnthropic, text, toolCall } from '../test/support/fake-anthropic';
import { report, sizeArg, startBenchEnv, table, uniqueId, type BenchEnv } from './support/bench-env';

const ITERATIONS = sizeArg('iterations', 50);
const MODES = ['off', '5m', '1h'] as const;
type Mode = (typeof MODES)[number];
const WRITE_PRICE: Record<Mode, number> = { off: 1, '5m': 1.25, '1h': 2 };

const NOTE = Array.from({ length: 40 }, (_, i) => `- item ${i}: the quarterly numbers for region ${i % 7} were checked and filed.`).join('\n');

async function runOnce(env: BenchEnv, mode: Mode): Promise<{ usage: TokenUsage; requests: number }> {
  const fake = await startFakeAnthropic({ promptCache: true });
  const workspace = mkdtempSync(path.join(tmpdir(), 'bench-cost-'));
  writeFileSync(path.join(workspace, 'notes.md'), NOTE);
  const taskQueue = uniqueId('bench-cost');
  const worker = await createAgentWorker({
    address: env.server.address,
    taskQueue,
    workspaceRoot: workspace,
    workflowBundle: env.bundle,
    env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: fake.baseUrl, AGENT_PROMPT_CACHE: mode },
  });
  try {
    const task = uniqueId('cost');
    const turn = (i: number) => reply(text(`Checking the notes again (pass ${i}) to make sure nothing changed since the last look.`), toolCall('read_file', { path: 'notes.md' }));
    fake.script(task, [
      ...Array.from({ length: ITERATIONS - 1 }, (_, i) => turn(i + 1)),
      reply(toolCall('complete_task', { summary: 'The notes are unchanged.', status: 'success' })),
    ]);
    const result = await worker.worker.runUntil(async () => {
      const handle = await startRun(worker.client, { agent: 'general', task, maxIterations: ITERATIONS + 5 }, { taskQueue });
      return handle.result();
    });
    if (fake.errors.length > 0) throw new Error(`the fake API saw unscripted requests: ${fake.errors.join('; ')}`);
    return { usage: result.usage, requests: fake.requestsFor(task).length };
  } finally {
    await worker.close();
    await fake.close();
  }
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
    report('cost', 'npm run bench:cost', body);
    const saved = 1 - billed('5m') / baseline;
    if (saved < 0.75) {
      console.error(`Below the target: caching saved ${(saved * 100).toFixed(1)}% of billed input tokens (target: at least 75%).`);
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
