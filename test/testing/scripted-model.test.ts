import Anthropic from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { disconnect, estimateTokens, fail, reply, startFakeAnthropic, text, toolCall, type FakeAnthropic } from '../../src/testing/scripted-model';

describe('fake-anthropic', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;
  const ask = (task: string, history: Anthropic.MessageParam[] = []) =>
    client.messages.create({ model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: task }, ...history] });

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    // maxRetries 0: each test sees exactly the response the script served, not the SDK's retry.
    client = new Anthropic({ apiKey: 'test', baseURL: fake.baseUrl, maxRetries: 0 });
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('returns a scripted reply that the SDK parses', async () => {
    fake.script('list the files', [reply(text('Looking.'), toolCall('list_files', { path: '.' }))]);
    const message = await ask('Please list the files here');
    expect(message.content).toEqual([
      { type: 'text', text: 'Looking.', citations: null },
      { type: 'tool_use', id: 'toolu_0_0', name: 'list_files', input: { path: '.' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.model).toBe('claude-test');
    expect(message.usage).toMatchObject({ input_tokens: 100, output_tokens: 20 });
    expect(fake.requestsFor('list the files')).toHaveLength(1);
    expect(fake.errors).toEqual([]);
  });

  it('surfaces a 529 as an APIError with its retry-after header, then serves the reply', async () => {
    fake.script('busy', [fail(529, { retryAfter: 3 }), reply(text('done'))]);
    const err = await ask('busy task').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const apiError = err as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(529);
    expect(apiError.headers?.get('retry-after')).toBe('3');
    expect(apiError.type).toBe('overloaded_error');
    // The retry of the same request gets the reply the failure stood in front of.
    expect((await ask('busy task')).content).toEqual([{ type: 'text', text: 'done', citations: null }]);
  });

  it('answers a request carrying one assistant message with reply #1', async () => {
    fake.script('two steps', [reply(toolCall('read_file', { path: 'a' })), reply(text('second'))]);
    const message = await ask('two steps', [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_0_0', name: 'read_file', input: { path: 'a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'hello' }] },
    ]);
    expect(message.content).toEqual([{ type: 'text', text: 'second', citations: null }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(fake.requests.map((r) => r.index)).toEqual([1]);
  });

  it('records a request that no script matches, or that runs past the script', async () => {
    fake.script('short', [reply(text('only one'))]);
    await expect(ask('unknown task')).rejects.toMatchObject({ status: 400 });
    await expect(ask('short', [{ role: 'assistant', content: 'only one' }])).rejects.toMatchObject({ status: 500 });
    expect(fake.errors).toEqual([
      expect.stringContaining('no script matches task "unknown task"'),
      'fake-anthropic: script for "short" has no reply #1',
    ]);
  });

  it('lets a dynamic reply read the request', async () => {
    fake.script('echo', [reply((req) => reply(text(`model was ${req.body.model}`)).withUsage({ output_tokens: 7 }))]);
    const message = await ask('echo');
    expect(message.content).toEqual([{ type: 'text', text: 'model was claude-test', citations: null }]);
    expect(message.usage.output_tokens).toBe(7);
  });

  it('counts tokens, and answers 404 when counting is switched off', async () => {
    const params = { model: 'claude-test', messages: [{ role: 'user' as const, content: 'count me' }] };
    expect(await client.messages.countTokens(params)).toEqual({ input_tokens: estimateTokens(params) });
    fake.countTokensEnabled = false;
    await expect(client.messages.countTokens(params)).rejects.toMatchObject({ status: 404 });
    fake.countTokensEnabled = true;
    expect(fake.errors).toEqual([]);
  });

  it('drops the connection for a disconnect step, which the SDK reports as a connection error, then serves the reply', async () => {
    fake.script('flaky line', [disconnect(), reply(text('back'))]);
    await expect(ask('flaky line')).rejects.toBeInstanceOf(Anthropic.APIConnectionError);
    expect((await ask('flaky line')).content).toEqual([{ type: 'text', text: 'back', citations: null }]);
    expect(fake.requestsFor('flaky line')).toHaveLength(2);
  });

  it('computes a retry-after given as a function when it serves the failure', async () => {
    let calls = 0;
    fake.script('dated', [fail(503, { retryAfter: () => `computed-${++calls}` }), reply(text('ok'))]);
    const err = (await ask('dated').catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(err.headers?.get('retry-after')).toBe('computed-1');
    expect(calls).toBe(1);
  });

  it('holds a gated reply until its gate opens', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    fake.script('gated', [reply(text('released')).until(gate)]);
    const answer = ask('gated');
    await waitUntil(() => fake.requestsFor('gated').length === 1);
    expect(fake.requestsFor('gated')[0]!.answeredAt).toBeUndefined();
    open();
    expect((await answer).content).toEqual([{ type: 'text', text: 'released', citations: null }]);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
