// The relay that lets hosts without internet reach the model API, in front of the fake API: the
// real SDK's requests and streamed answers pass through unchanged, and an unreachable API is a 502.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEndpoint } from '../../scripts/cluster/cluster';
import { startModelRelay } from '../../scripts/cluster/model-relay';
import { reply, startFakeAnthropic, text, type FakeAnthropic } from '../support/fake-anthropic';

describe('startModelRelay', () => {
  let fake: FakeAnthropic;
  let relay: ModelEndpoint;

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    relay = await startModelRelay({ host: '127.0.0.1', upstream: fake.baseUrl });
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('forwards requests with their headers and streams the answers back', async () => {
    fake.script('relay check', [reply(text('first')), reply(text('second'))]);
    const client = new Anthropic({ apiKey: 'sk-relayed', baseURL: relay.baseUrl, maxRetries: 0 });
    const request = { model: 'claude-test', max_tokens: 50, messages: [{ role: 'user' as const, content: 'relay check' }] };
    const plain = await client.messages.create(request);
    expect(plain.content).toEqual([expect.objectContaining({ type: 'text', text: 'first' })]);
    const streamed = await client.messages
      .stream({ ...request, messages: [...request.messages, { role: 'assistant', content: 'first' }, { role: 'user', content: 'again' }] })
      .finalMessage();
    expect(streamed.content).toEqual([expect.objectContaining({ type: 'text', text: 'second' })]);
    expect(fake.requestsFor('relay check').map((r) => r.headers.authorization)).toEqual(['Bearer sk-relayed', 'Bearer sk-relayed']);
  });

  it('answers 502 in the API error format when the upstream cannot be reached', async () => {
    const dead = await startModelRelay({ host: '127.0.0.1', upstream: 'http://127.0.0.1:1' });
    try {
      const client = new Anthropic({ apiKey: 'k', baseURL: dead.baseUrl, maxRetries: 0 });
      const failure = await client.messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(Anthropic.APIError);
      expect((failure as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
      expect(String((failure as Error).message)).toContain('cluster model relay');
    } finally {
      await dead.close();
    }
  });
});
