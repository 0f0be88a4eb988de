import Anthropic from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redactedThinking, reply, serverToolUse, startFakeAnthropic, text, thinking, toolCall, webSearchResult, type FakeAnthropic } from './fake-anthropic';

const TASK = 'think then search';
const blocks = [thinking('Let me think.\nTwo lines.'), redactedThinking('EqOpaque=='), serverToolUse('web_search', { query: 'x' }, 'srvtoolu_1'), webSearchResult('srvtoolu_1', ['https://example.com'])];

describe('fake-anthropic with thinking and server tools', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;
  const params = (history: Anthropic.MessageParam[] = []): Anthropic.MessageCreateParamsNonStreaming => ({
    model: 'claude-test',
    max_tokens: 4096,
    thinking: { type: 'enabled', budget_tokens: 1024 },
    messages: [{ role: 'user', content: TASK }, ...history],
  });
  /** The first reply, then a request that sends `assistant` back as the first assistant turn. */
  async function continueWith(edit: (content: Anthropic.ContentBlockParam[]) => Anthropic.ContentBlockParam[]) {
    const first = await client.messages.create(params());
    const assistant = edit(first.content as unknown as Anthropic.ContentBlockParam[]);
    const result: Anthropic.ToolResultBlockParam = { type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'ok' };
    return client.messages.create(params([{ role: 'assistant', content: assistant }, { role: 'user', content: [result] }]));
  }

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    client = new Anthropic({ apiKey: 'test', baseURL: fake.baseUrl, maxRetries: 0 });
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('streams thinking as thinking and signature deltas, and server tool blocks, which the SDK assembles as sent', async () => {
    fake.script(TASK, [reply(...blocks, text('Found it.'), toolCall('step', { n: 1 }))]);
    const seen: string[] = [];
    const stream = client.messages.stream(params());
    stream.on('thinking', (delta) => seen.push(delta));
    const message = await stream.finalMessage();
    expect(seen.join('')).toBe('Let me think.\nTwo lines.');
    expect(message.content.slice(0, 4)).toEqual(blocks);
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result', 'text', 'tool_use']);
    // The same reply as JSON, for a request that does not stream.
    fake.reset();
    fake.script(TASK, [reply(...blocks, toolCall('step', { n: 1 }))]);
    expect((await client.messages.create(params())).content.slice(0, 4)).toEqual(blocks);
  });

  it('accepts the blocks sent back unchanged and in order', async () => {
    fake.script(TASK, [reply(...blocks, toolCall('step', { n: 1 })), reply(text('done'))]);
    expect((await continueWith((c) => c)).content).toEqual([{ type: 'text', text: 'done', citations: null }]);
    expect(fake.errors).toEqual([]);
  });

  const refusals: [string, (c: Anthropic.ContentBlockParam[]) => Anthropic.ContentBlockParam[], RegExp][] = [
    ['a changed thinking text', (c) => c.map((b) => (b.type === 'thinking' ? { ...b, thinking: `${b.thinking} ` } : b)), /Invalid `signature` in `thinking` block/],
    ['a dropped thinking block', (c) => c.filter((b) => b.type !== 'thinking'), /passed back unmodified and in their original order/],
    ['a dropped redacted thinking block', (c) => c.filter((b) => b.type !== 'redacted_thinking'), /passed back unmodified/],
    ['thinking moved after the tool call', (c) => [...c.filter((b) => b.type === 'tool_use'), ...c.filter((b) => b.type !== 'tool_use')], /must start with its thinking blocks/],
    ['a server tool call without its result', (c) => c.filter((b) => b.type !== 'web_search_tool_result'), /without a result block/],
    ['a changed search result', (c) => c.map((b) => (b.type === 'web_search_tool_result' ? { ...b, content: [] } : b)), /passed back unmodified/],
  ];
  for (const [what, edit, message] of refusals) {
    it(`answers 400 to ${what}, as the API does`, async () => {
      fake.script(TASK, [reply(...blocks, toolCall('step', { n: 1 })), reply(text('done'))]);
      const error = (await continueWith(edit).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(error.message).toMatch(message);
    });
  }
});
