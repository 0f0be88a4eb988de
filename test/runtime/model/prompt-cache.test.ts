// The breakpoints the runtime adds (src/runtime/model/prompt-cache.ts) against the documented caching rules
// (test/support/prompt-cache-simulator.ts): a growing conversation reads the previous turn's prompt
// every turn; a compaction, which rewrites the start of the conversation, falls back to the cached
// tools and system prompt, and the turn after it reads fully again.
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { withCacheBreakpoints } from '../../../src/runtime/model/prompt-cache';
import { PromptCacheSimulator, withoutCacheMarks } from '../../support/prompt-cache-simulator';

const tools: Anthropic.Tool[] = Array.from({ length: 6 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Tool number ${i}, which does something useful with files. `.repeat(8),
  input_schema: { type: 'object', properties: { path: { type: 'string' } } },
}));
const system = 'You are a careful agent. '.repeat(60);

function turn(i: number): Anthropic.MessageParam[] {
  return [
    { role: 'assistant', content: [{ type: 'text', text: `Looking at part ${i}.` }, { type: 'tool_use', id: `t${i}`, name: 'tool_0', input: { path: `p${i}` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `contents of part ${i} `.repeat(40) }] },
  ];
}

const total = (u: { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number }) =>
  u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;

describe('prompt-cache breakpoints', () => {
  it('let every turn read the previous prompt; only a compaction falls back to tools + system', () => {
    const cache = new PromptCacheSimulator();
    let messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Do the task in parts.' }];
    const send = () => cache.apply(withCacheBreakpoints({ system, tools, messages }, '5m'));
    const usages = [send()];
    for (let i = 1; i <= 8; i += 1) {
      messages = [...messages, ...turn(i)];
      usages.push(send());
      expect(usages[i]!.cache_read_input_tokens).toBe(total(usages[i - 1]!));
      expect(usages[i]!.input_tokens).toBe(0);
    }
    // The prefix the compaction keeps: tools and system prompt.
    const head = cache.apply(withCacheBreakpoints({ system, tools, messages: [] }, '5m')).cache_read_input_tokens;
    expect(head).toBeGreaterThan(1_024);
    // A compaction: the first turns become one summary message, the last two turns stay.
    messages = [{ role: 'user', content: 'Do the task in parts.\n\nSummary of parts 1-6: all fine.' }, ...messages.slice(-4)];
    const compacted = send();
    expect(compacted.cache_read_input_tokens).toBe(head);
    messages = [...messages, ...turn(9)];
    expect(send().cache_read_input_tokens).toBe(total(compacted));
  });

  it('never uses more than four breakpoints, marks a string message as one text block, and changes nothing with off', () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Task' }, ...turn(1), ...turn(2)];
    const marked = withCacheBreakpoints({ system, tools, messages }, '1h');
    const json = JSON.stringify(marked);
    expect(json.split('"cache_control"').length - 1).toBe(4);
    expect(json).toContain('"ttl":"1h"');
    expect(withoutCacheMarks({ ...marked, messages: marked.messages })).toEqual({ system, tools, messages });
    const first = withCacheBreakpoints({ system, tools, messages: [{ role: 'user', content: 'Task' }] }, '5m').messages[0]!;
    expect(first.content).toEqual([{ type: 'text', text: 'Task', cache_control: { type: 'ephemeral' } }]);
    expect(withCacheBreakpoints({ system, tools, messages }, 'off')).toEqual({ system, tools, messages });
  });

  it('keep every turn reading the previous prompt when turns start with thinking and carry server tool blocks, which are never marked', () => {
    const cache = new PromptCacheSimulator();
    const thought = (i: number): Anthropic.MessageParam[] => {
      const [assistant, result] = turn(i);
      const blocks = [
        { type: 'thinking', thinking: `Thinking about part ${i}. `.repeat(20), signature: `sig${i}` },
        { type: 'server_tool_use', id: `s${i}`, name: 'web_search', input: { query: `part ${i}` } },
        { type: 'web_search_tool_result', tool_use_id: `s${i}`, content: [{ type: 'web_search_result', url: `https://example.com/${i}`, title: 't', encrypted_content: 'e', page_age: null }] },
      ] as unknown as Anthropic.ContentBlockParam[];
      return [{ role: 'assistant', content: [...blocks, ...(assistant!.content as Anthropic.ContentBlockParam[])] }, result!];
    };
    let messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Do the task in parts.' }];
    const send = () => withCacheBreakpoints({ system, tools, messages }, '5m');
    const usages = [cache.apply(send())];
    for (let i = 1; i <= 6; i += 1) {
      messages = [...messages, ...thought(i)];
      const request = send();
      for (const m of request.messages) {
        for (const b of typeof m.content === 'string' ? [] : m.content) if (b.type === 'thinking' || b.type === 'server_tool_use') expect(b).not.toHaveProperty('cache_control');
      }
      usages.push(cache.apply(request));
      expect(usages[i]!.cache_read_input_tokens).toBe(total(usages[i - 1]!));
    }
    // A conversation that ends with an assistant turn whose last block is thinking gets no mark there.
    const ending: Anthropic.MessageParam[] = [{ role: 'user', content: 'Task' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 'sig' }] }];
    expect(withCacheBreakpoints({ system, tools, messages: ending }, '5m').messages[1]).toEqual(ending[1]);
  });
});
