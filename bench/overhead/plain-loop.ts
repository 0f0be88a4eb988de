// The floor: the same agent loop in one process with no durability. Same fake API through the real
// SDK, same tool specs, same tool code; nothing is written anywhere between turns.
import Anthropic from '@anthropic-ai/sdk';
import type { ModelToolSpec } from '../../src/runtime/agents/agent-registry';
import { createProcessRunner } from '../../src/runtime/tools/sandbox/process-runner';
import { resolveSandboxMode } from '../../src/runtime/tools/sandbox/sandbox-mode';
import type { Tool, ToolContext } from '../../src/runtime/tools/tool-definition';

export interface LoopSpec {
  baseUrl: string;
  task: string;
  tools: readonly Tool[];
  toolSpecs: ModelToolSpec[];
  system: string;
}

/** Runs model → tools → model ... until the model calls complete_task; returns the iterations. */
export async function plainLoop(spec: LoopSpec): Promise<number> {
  const client = new Anthropic({ apiKey: 'bench', baseURL: spec.baseUrl, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: spec.task }];
  for (let iteration = 1; ; iteration += 1) {
    const response = await client.messages.create({
      model: 'bench',
      max_tokens: 1_024,
      system: spec.system,
      tools: spec.toolSpecs as Anthropic.Tool[],
      messages,
    });
    messages.push({ role: 'assistant', content: response.content });
    const calls = response.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    if (calls.some((c) => c.name === 'complete_task')) return iteration;
    messages.push({ role: 'user', content: await runCalls(spec.tools, calls) });
  }
}

/** Runs each call with the tool's own schema and code, as the runTool activity does. */
export async function runCalls(tools: readonly Tool[], calls: Anthropic.ToolUseBlock[]): Promise<Anthropic.ToolResultBlockParam[]> {
  const results: Anthropic.ToolResultBlockParam[] = [];
  for (const call of calls) {
    const tool = tools.find((t) => t.name === call.name);
    const input = tool?.inputSchema.safeParse(call.input);
    const output = tool && input?.success ? (await tool.execute(input.data, noContext)).output : `unknown tool ${call.name}`;
    results.push({ type: 'tool_result', tool_use_id: call.id, content: output });
  }
  return results;
}

// The same process runner a worker here would build, so a shell call costs what it costs there.
const noContext: ToolContext = {
  workspaceRoot: process.cwd(),
  signal: new AbortController().signal,
  heartbeat: () => undefined,
  idempotencyKey: 'bench/plain-loop',
  processes: createProcessRunner({ mode: resolveSandboxMode(process.env), envAllowList: [], sourceEnv: process.env }),
  network: false,
  hiddenPaths: [],
};
