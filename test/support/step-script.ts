// A scripted model for long runs. The fake Messages API picks a reply by how many assistant messages
// a request carries, which stops meaning "how far the run is" once compaction drops old turns or a
// resumed run starts afresh. Here every tool call gets the id `toolu_s<step>_<n>`, and the step of a
// request is read back from the last tool result it carries: deterministic and idempotent under
// retries, compaction and continue-as-new alike.
import { z } from 'zod';
import { defineTool } from '../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../src/contract/tool-result';
import type { ContentBlock } from '../../src/contract/messages';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { reply, toolCall, type FakeRequest, type Reply, type Step } from './fake-anthropic';

/** A request's step: one past the step of its last tool result, or 0 before any tool ran. */
export function stepOf(request: Pick<FakeRequest, 'body'>): number {
  const last = request.body.messages[request.body.messages.length - 1];
  if (!last || typeof last.content === 'string') return 0;
  const ids = (last.content as ContentBlock[])
    .filter((b) => b.type === 'tool_result')
    .map((b) => /^toolu_s(\d+)_/.exec((b as { tool_use_id: string }).tool_use_id)?.[1]);
  const steps = ids.filter((s): s is string => s !== undefined).map(Number);
  return steps.length === 0 ? 0 : Math.max(...steps) + 1;
}

export const callId = (step: number, n = 0) => `toolu_s${step}_${n}`;

/**
 * Script steps that all answer through `plan(step, request)`. The fake needs one entry per possible
 * assistant-message count, so the same dynamic reply is repeated `slots` times.
 */
export function stepScript(plan: (step: number, request: FakeRequest) => Reply, slots = 400): Step[] {
  const step = reply((request) => plan(stepOf(request), request));
  return Array.from({ length: slots }, () => step);
}

/** Usage as the real API would report it for the conversation's text (tools and system left out). */
export function messageTokens(request: FakeRequest): number {
  return Math.ceil(JSON.stringify(request.body.messages).length / 4);
}

/** Text of the first user message of a request: the task, plus the carried memory after compaction. */
export function firstUserText(request: FakeRequest): string {
  const first = request.body.messages[0];
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return (first.content as ContentBlock[]).map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/** Every text block of a request's user messages: where a resumed run's note lands, at the end of the earlier conversation. */
export function userText(request: FakeRequest): string {
  return request.body.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => (typeof m.content === 'string' ? [m.content] : (m.content as ContentBlock[]).map((b) => (b.type === 'text' ? b.text : ''))))
    .join('\n');
}

/** `step { n }`: a read tool whose output is `size` characters, so tests can fill a context on purpose. */
export const stepTool = defineTool({
  name: 'step',
  description: 'Does step n of the work and reports on it.',
  scope: 'read',
  inputSchema: z.object({ n: z.number().int(), size: z.number().int().min(0).max(100_000).optional() }),
  async execute(input) {
    const head = `step ${input.n} done`;
    return ToolResult.success(head + '.'.repeat(Math.max(0, (input.size ?? 200) - head.length)));
  },
});

/** `gated_step { n }`: a write tool, so the default policy parks each call for a person's approval. */
export const gatedStepTool = defineTool({
  name: 'gated_step',
  description: 'Does a step that changes something; a person must approve it.',
  scope: 'write',
  inputSchema: z.object({ n: z.number().int() }),
  async execute(input) {
    return ToolResult.success(`gated step ${input.n} done`);
  },
});

/** An agent with both step tools, for runs long enough to cross continue-as-new. */
export const chainAgent: AgentDefinitionInput = {
  name: 'chain',
  description: 'Does many small steps, one of which needs approval.',
  modelTier: 'balanced',
  tools: ['step', 'gated_step'],
  systemPrompt: 'You work in steps.',
  maxIterations: 100,
};

/** Steps 0 to `last`, step `gated` through the gated tool (it parks for approval), then complete_task with `summary`. */
export function chainPlan(options: { gated: number; last: number; summary: string }) {
  return (step: number): Reply => {
    if (step === options.gated) return reply(toolCall('gated_step', { n: step }, callId(step)));
    if (step <= options.last) return reply(toolCall('step', { n: step }, callId(step)));
    return reply(toolCall('complete_task', { summary: options.summary, status: 'success' }, callId(step)));
  };
}

/**
 * Every tool_result block is answered by a tool_use with the same id in the message right before
 * it, and every tool_use is answered in the message right after: the API rejects anything else.
 * Returns the broken pairs, so an assertion failure shows them.
 */
export function brokenToolPairs(messages: FakeRequest['body']['messages']): string[] {
  const blocks = (i: number) => {
    const content = messages[i]?.content;
    return typeof content === 'string' || content === undefined ? [] : (content as ContentBlock[]);
  };
  const ids = (i: number, type: 'tool_use' | 'tool_result') =>
    blocks(i)
      .filter((b) => b.type === type)
      .map((b) => (b.type === 'tool_use' ? b.id : (b as { tool_use_id: string }).tool_use_id));
  const broken: string[] = [];
  messages.forEach((_, i) => {
    for (const id of ids(i, 'tool_result')) if (!ids(i - 1, 'tool_use').includes(id)) broken.push(`result ${id} at ${i}`);
    for (const id of ids(i, 'tool_use')) if (i + 1 < messages.length && !ids(i + 1, 'tool_result').includes(id)) broken.push(`call ${id} at ${i}`);
  });
  return broken;
}
