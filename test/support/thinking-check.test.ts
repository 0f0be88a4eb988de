import Anthropic from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { citedText, containerUpload, redactedThinking, reply, serverToolUse, startFakeAnthropic, text, thinking, toolCall, webSearchCitation, webSearchResult, type FakeAnthropic } from './fake-anthropic';

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

  it('streams a text block\'s citations as citations_delta events, which the SDK assembles as sent', async () => {
    const cited = citedText('The page says so.', [webSearchCitation('https://example.com', 'so')]);
    fake.script(TASK, [reply(...blocks, cited, containerUpload('file_1'), toolCall('step', { n: 1 }))]);
    const message = await client.messages.stream(params()).finalMessage();
    expect(message.content.slice(4, 6)).toEqual([cited, containerUpload('file_1')]);
  });

  it('answers 400 to a dropped container upload, as to any block of the API dropped', async () => {
    fake.script(TASK, [reply(...blocks, containerUpload('file_1'), toolCall('step', { n: 1 })), reply(text('done'))]);
    const error = await continueWith((c) => c.filter((b) => b.type !== 'container_upload')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('answers a paused turn sent back as the last message with its continuation, and then wants the whole turn back', async () => {
    const paused = [thinking('Two searches.'), serverToolUse('web_search', { query: 'a' }, 'srvtoolu_a')];
    // A reply is chosen by the count of assistant messages, and a continued turn is still one: the
    // second reply tells a continuation (the request ends with the paused turn) from the next turn.
    const continuation = reply(webSearchResult('srvtoolu_a', ['https://example.com/a']), toolCall('step', { n: 1 }, 'toolu_1_0'));
    fake.script(TASK, [reply(...paused).withStopReason('pause_turn'), reply((r) => (r.body.messages.at(-1)?.role === 'assistant' ? continuation : reply(text('done'))))]);
    const first = await client.messages.create(params());
    expect(first.stop_reason).toBe('pause_turn');
    const turn = first.content as unknown as Anthropic.ContentBlockParam[];
    // The paused turn goes back as it is (its search not answered yet), with no user message after it.
    const second = await client.messages.create(params([{ role: 'assistant', content: turn }]));
    const whole = [...turn, ...(second.content as unknown as Anthropic.ContentBlockParam[])];
    const result: Anthropic.ToolResultBlockParam = { type: 'tool_result', tool_use_id: 'toolu_1_0', content: 'ok' };
    const ask = (content: Anthropic.ContentBlockParam[]) => client.messages.create(params([{ role: 'assistant', content }, { role: 'user', content: [result] }]));
    expect((await ask(whole)).content).toEqual([{ type: 'text', text: 'done', citations: null }]);
    // Only the continuation sent back, without the paused blocks: refused like any dropped block.
    await expect(ask(whole.slice(2))).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    // The turn must still open with the paused reply's thinking.
    const call = whole.find((b) => b.type === 'tool_use')!;
    await expect(ask([call, ...whole.filter((b) => b !== call)])).rejects.toThrow(/must start with its thinking blocks/);
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
