// runTool on a real worker: a tool that is safe to repeat but never finishes in time uses up its
// attempts (each bounded by the tool's own timeoutSeconds), and the model gets an error result.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { defineTool } from '../../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../../src/contract/tool-result';
import { toolResultsIn, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

/** Attempts of `stuck` per call id, counted where the tool really runs. */
const attempts = new Map<string, number>();
const stuckTool = defineTool({
  name: 'stuck',
  description: 'Never finishes within its time limit.',
  scope: 'read',
  idempotent: true,
  timeoutSeconds: 1,
  inputSchema: z.object({ key: z.string() }),
  async execute({ key }, { signal }) {
    attempts.set(key, (attempts.get(key) ?? 0) + 1);
    // Waits until Temporal gives up on the attempt (or, as a backstop, far longer than the limit).
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 30_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return ToolResult.success('too late');
  },
});
/** A custom tool whose output is far longer than any tool may hand the model. */
const loudTool = defineTool({
  name: 'loud',
  description: 'Prints a lot.',
  scope: 'read',
  idempotent: true,
  inputSchema: z.object({}),
  async execute() {
    return ToolResult.success('x'.repeat(30_000));
  },
});
const agent: AgentDefinitionInput = {
  name: 'stuck-user',
  description: 'Uses a tool that hangs.',
  modelTier: 'balanced',
  tools: ['stuck', 'loud'],
  systemPrompt: 'You try things.',
  maxIterations: 5,
};

describe('runTool', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, agent], tools: [stuckTool, loudTool] });
  const fake = bed.fake;

  it('turns a tool that exhausts its attempts (each cut at its timeoutSeconds) into an is_error result, and the run goes on', async () => {
    const task = uniqueId('exhausted');
    const key = uniqueId('key');
    fake.script(task, [reply(toolCall('stuck', { key })), reply(toolCall('complete_task', { summary: 'went on without it', status: 'partial' }))]);
    const started = Date.now();
    const result = await withAgentWorker(bed.harness(), async ({ start }) => (await start({ agent: 'stuck-user', task })).result());
    expect(result).toMatchObject({ status: 'completed', completion: { summary: 'went on without it' } });
    // Three attempts of the retry policy for tools that are safe to repeat, then no more.
    expect(attempts.get(key)).toBe(3);
    // Each attempt ended after about a second (timeoutSeconds), not the default 15 minutes.
    expect(Date.now() - started).toBeLessThan(60_000);
    const [toolResult] = toolResultsIn(fake.requestsFor(task)[1]);
    expect(toolResult).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(toolResult!.content).toContain('stuck could not finish');
  });

  it('caps the output of every tool, custom ones included, at 24,000 characters with a note', async () => {
    const task = uniqueId('loud');
    fake.script(task, [reply(toolCall('loud', {})), reply(toolCall('complete_task', { summary: 'heard it', status: 'success' }))]);
    const result = await withAgentWorker(bed.harness(), async ({ start }) => (await start({ agent: 'stuck-user', task })).result());
    expect(result.status).toBe('completed');
    const [toolResult] = toolResultsIn(fake.requestsFor(task)[1]);
    expect(toolResult!.content.startsWith('x'.repeat(24_000) + '\n')).toBe(true);
    expect(toolResult!.content).not.toContain('x'.repeat(24_001));
    expect(toolResult!.content).toMatch(/\[output truncated: showing 24000 of 30000 characters; .+\]$/);
  });
});
