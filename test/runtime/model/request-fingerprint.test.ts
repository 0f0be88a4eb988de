// The request fingerprint kept in every model call's result (src/runtime/model/request-fingerprint.ts):
// the same text, in the history, as it was before each tool's digest was remembered (issue 37, the
// main thread's share); and each tool the registry hands out is digested once, not on every call.
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createAgentRegistry } from '../../../src/runtime/agents/agent-registry';
import { builtinTools } from '../../../src/runtime/tools/builtin';
import { buildModelRequest } from '../../../src/runtime/model/model-request';
import type { PromptCacheMode } from '../../../src/runtime/model/prompt-cache';
import { withCacheBreakpoints } from '../../../src/runtime/model/prompt-cache';
import { digestOf, requestFingerprint, systemText, withoutCacheControl } from '../../../src/runtime/model/request-fingerprint';
import { outputContractOf } from '../../../src/core/structured-output/output-contract';

/** The fingerprint as it was computed before: every tool digested anew, on every call. */
function fromScratch(request: Anthropic.MessageCreateParams) {
  const skip = new Set(['model', 'system', 'tools', 'messages', 'stream', 'metadata']);
  const params = Object.fromEntries(Object.entries(request).filter(([key, value]) => !skip.has(key) && value !== undefined));
  const tools = (request.tools ?? []).map((tool) => `${(tool as { name?: string }).name ?? tool.type ?? 'tool'}#${digestOf(withoutCacheControl(tool))}`);
  return { model: request.model, params: withoutCacheControl(params), system: digestOf(systemText(request.system)), tools };
}

const models = { fast: 'model-fast', balanced: 'model-balanced', powerful: 'model-powerful' };
const registry = createAgentRegistry(
  [
    { name: 'reader', description: 'Reads.', modelTier: 'balanced', systemPrompt: 'You read files.', maxIterations: 50, tools: ['list_files', 'read_file', 'search_files'], serverTools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] },
    { name: 'plain', description: 'Lists.', modelTier: 'fast', systemPrompt: 'You list files.', maxIterations: 50, tools: ['list_files'], thinking: { type: 'enabled', budget_tokens: 2_048 }, maxTokens: 8_192 },
  ],
  builtinTools,
);

describe('requestFingerprint', () => {
  it.each<[string, PromptCacheMode, boolean]>([
    ['reader', '5m', false],
    ['reader', '1h', false],
    ['reader', 'off', false],
    ['plain', '5m', false],
    ['plain', '5m', true],
  ])('gives agent %s (cache %s, typed output %s) the fingerprint it gave before, call after call', (name, cache, typed) => {
    const agent = registry.agents.get(name)!;
    const contract = typed ? outputContractOf({ type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] }, 'test') : undefined;
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'the task' }];
    for (let call = 0; call < 4; call += 1) {
      const request = buildModelRequest({ registry, agent, messages: messages as never, contract, cache, models });
      expect(requestFingerprint(request)).toEqual(fromScratch(request));
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${call}`, name: 'list_files', input: {} }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${call}`, content: `listing ${call}` }] });
    }
  });

  it('digests a tool it was handed before only once, also when the prompt-cache mark is on a copy of it', () => {
    let reads = 0;
    const counted = (name: string) => ({
      name,
      get description() {
        reads += 1;
        return `The tool ${name}.`;
      },
      input_schema: { type: 'object' as const, properties: { path: { type: 'string', cache_control: 'a property, not a mark' } } },
    });
    const tools = [counted('first'), counted('last')] as Anthropic.Tool[];
    const fingerprints = [];
    for (let call = 0; call < 3; call += 1) {
      const parts = withCacheBreakpoints({ system: 'Be brief.', tools, messages: [{ role: 'user', content: 'go' }] }, '5m');
      const before = reads;
      fingerprints.push(requestFingerprint({ model: 'm', max_tokens: 10, ...parts }));
      // The first call reads each tool once to digest it; later calls read none.
      expect(reads - before).toBe(call === 0 ? 2 : 0);
    }
    expect(new Set(fingerprints.map((f) => JSON.stringify(f))).size).toBe(1);
    // Digests as before: the mark left out, the schema's own `cache_control` member too (as withoutCacheControl always did).
    expect(fingerprints[0]!.tools).toEqual(tools.map((tool) => `${tool.name}#${digestOf(withoutCacheControl(tool))}`));
  });
});
