// Tools and agents the benchmarks register on their workers.
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { defineTool } from '../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../src/contract/tool-result';

/** Does nothing, instantly: what is left of an iteration is the orchestration around it. */
export const noopTool = defineTool({
  name: 'noop',
  description: 'Does nothing and returns "ok".',
  scope: 'read',
  inputSchema: z.object({ n: z.number().int() }),
  async execute() {
    return ToolResult.success('ok');
  },
});

/**
 * The same no-op, declared slow (`quick: false`), so its calls run as ordinary activities, as every
 * tool call did before local quick tools: the benchmark's side-by-side baseline.
 */
export const noopActivityTool = defineTool({ ...noopTool, name: 'noop_activity', quick: false });

/** Returns `size` characters (5 KB by default): a tool output of the size the history benchmark asks for. */
export const bulkTool = defineTool({
  name: 'bulk',
  description: 'Returns a block of text of the requested size.',
  scope: 'read',
  inputSchema: z.object({ n: z.number().int(), size: z.number().int().min(0).max(100_000).optional() }),
  async execute(input) {
    const head = `output of step ${input.n}: `;
    const size = input.size ?? 5_000;
    // Varied text, so the figures are not those of a payload that compresses to nothing.
    let body = '';
    for (let i = 0; body.length < size - head.length; i += 1) body += `${(input.n * 7919 + i * 104729).toString(36)} `;
    return ToolResult.success(head + body.slice(0, Math.max(0, size - head.length)));
  },
});

/** A write tool (so the default policy asks a person) that reports when it starts. */
export function gatedProbeTool(onStart: (n: number) => void) {
  return defineTool({
    name: 'gated_noop',
    description: 'Does nothing, but only after a person approved it.',
    scope: 'write',
    inputSchema: z.object({ n: z.number().int() }),
    async execute(input) {
      onStart(input.n);
      return ToolResult.success('ok');
    },
  });
}

export function benchAgent(name: string, tools: string[], extra: Partial<AgentDefinitionInput> = {}): AgentDefinitionInput {
  return {
    name,
    description: `Benchmark agent using ${tools.join(', ')}.`,
    modelTier: 'balanced',
    tools,
    systemPrompt: 'You call the tools you are told to call.',
    maxIterations: 100_000,
    ...extra,
  };
}
