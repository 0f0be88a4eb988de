import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseWorkerSettings } from '../../../../src/runtime/config/worker-settings';
import { loadPlatformSdk, ModelProviderError, type ModelCredentials } from '../../../../src/runtime/model/providers/model-client';
import { openModelClients } from '../../../../src/runtime/model/providers/open-model-clients';
import { streamMessage } from '../../../../src/runtime/model/stream-message';
import { reply, startFakeAnthropic, text, type FakeAnthropic } from '../../../support/fake-anthropic';
import { startFakeProviderEndpoints, type FakeProviderEndpoints } from '../../../support/fake-provider-endpoints';
import { uniqueId } from '../../../support/temporal';

// SigV4 and the Google token are faked at the credential provider: the SDKs sign and send for real.
const aws: ModelCredentials['aws'] = async () => ({ accessKeyId: 'AKIDFAKEKEY', secretAccessKey: 'fake-secret' });
const google: ModelCredentials['google'] = { projectId: 'creds-project', getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.fake-token' }) };
const credentials: ModelCredentials = { aws, google };

let fake: FakeAnthropic;
let endpoints: FakeProviderEndpoints;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  endpoints = await startFakeProviderEndpoints(fake);
});
afterAll(async () => {
  await endpoints.close();
  await fake.close();
});
afterEach(() => {
  expect(fake.errors).toEqual([]);
  expect(endpoints.errors).toEqual([]);
  endpoints.requests.length = 0;
  fake.reset();
});

function envFor(provider: string): NodeJS.ProcessEnv {
  return {
    AGENT_MODEL_PROVIDER: provider,
    AWS_REGION: 'eu-west-1',
    ANTHROPIC_BEDROCK_BASE_URL: endpoints.baseUrl,
    CLOUD_ML_REGION: 'us-east5',
    ANTHROPIC_VERTEX_PROJECT_ID: 'my-project',
    ANTHROPIC_VERTEX_BASE_URL: `${endpoints.baseUrl}/v1`,
    ANTHROPIC_FOUNDRY_API_KEY: 'foundry-key',
    ANTHROPIC_FOUNDRY_BASE_URL: `${endpoints.baseUrl}/anthropic/`,
  };
}

/** The Messages body a worker sends: what must reach the platform, apart from model and stream. */
function messagesRequest(task: string) {
  return { model: 'claude-sonnet-5-5', max_tokens: 512, system: 'You are terse.', messages: [{ role: 'user' as const, content: task }] };
}

async function streamThrough(env: NodeJS.ProcessEnv, task: string) {
  fake.script(task, [reply(text(`answer to ${task}`))]);
  const clients = await openModelClients(parseWorkerSettings(env).model, [], credentials);
  const answer = await streamMessage(clients(), messagesRequest(task), { progress: () => {}, signal: new AbortController().signal, idleMs: 5_000, attempt: 1 });
  expect(answer.content).toEqual([expect.objectContaining({ type: 'text', text: `answer to ${task}` })]);
  expect(endpoints.requests).toHaveLength(1);
  return endpoints.requests[0]!;
}

describe('openModelClients', () => {
  it('sends Bedrock the Messages body, SigV4-signed, with the Bedrock model name in the path, and reads its event stream', async () => {
    const task = uniqueId('bedrock');
    const seen = await streamThrough(envFor('bedrock'), task);
    expect(seen.platform).toBe('bedrock');
    expect(seen.path).toBe('/model/anthropic.claude-sonnet-5-5-v1:0/invoke-with-response-stream');
    expect(seen.model).toBe('anthropic.claude-sonnet-5-5-v1:0');
    const { model: _model, ...body } = messagesRequest(task);
    expect(seen.body).toEqual({ ...body, anthropic_version: expect.any(String) });
    expect(seen.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDFAKEKEY\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/);
    expect(seen.headers['x-api-key']).toBeUndefined();
  });

  it('sends Vertex AI the Messages body with the Google token, the project, region and model in the path', async () => {
    const task = uniqueId('vertex');
    const seen = await streamThrough(envFor('vertex'), task);
    expect(seen.path).toBe('/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-5-5:streamRawPredict');
    const { model: _model, ...body } = messagesRequest(task);
    expect(seen.body).toEqual({ ...body, stream: true, anthropic_version: expect.any(String) });
    expect(seen.headers.authorization).toBe('Bearer ya29.fake-token');
  });

  it('sends Foundry the Messages body with its key, under the resource endpoint', async () => {
    const task = uniqueId('foundry');
    const seen = await streamThrough(envFor('foundry'), task);
    expect(seen.path).toBe('/anthropic/v1/messages');
    expect(seen.body).toEqual({ ...messagesRequest(task), stream: true });
    expect(seen.headers['x-api-key']).toBe('foundry-key');
  });

  it('signs Foundry requests with an Entra ID token when a token provider is given instead of a key', async () => {
    const task = uniqueId('foundry-entra');
    fake.script(task, [reply(text('ok'))]);
    let asked = 0;
    const azureADTokenProvider = async () => `entra-token-${++asked}`;
    const clients = await openModelClients(parseWorkerSettings({ ...envFor('foundry'), ANTHROPIC_FOUNDRY_API_KEY: '' }).model, [], { azureADTokenProvider });
    await clients().messages.create(messagesRequest(task));
    // Asked once at start (the check) and once for the request.
    expect(endpoints.requests.map((r) => [r.path, r.headers.authorization, r.headers['x-api-key']])).toEqual([['/anthropic/v1/messages', 'Bearer entra-token-2', undefined]]);
  });

  it('uses the configured name of a model over the built-in one (AGENT_BEDROCK_MODELS), also for non-streaming calls', async () => {
    const task = uniqueId('bedrock-map');
    fake.script(task, [reply(text('ok'))]);
    const env = { ...envFor('bedrock'), AGENT_BEDROCK_MODELS: 'claude-sonnet-5-5=eu.anthropic.claude-sonnet-5-5-v1:0' };
    const clients = await openModelClients(parseWorkerSettings(env).model, [], credentials);
    await clients().messages.create(messagesRequest(task));
    expect(endpoints.requests.map((r) => r.path)).toEqual(['/model/eu.anthropic.claude-sonnet-5-5-v1:0/invoke']);
  });

  it("gives an agent's provider its own client while the worker's stays the default", async () => {
    const task = uniqueId('per-agent');
    fake.script(task, [reply(text('one')), reply(text('two'))]);
    const env = { ...envFor('bedrock'), AGENT_MODEL_PROVIDER: '', ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.baseUrl };
    const clients = await openModelClients(parseWorkerSettings(env).model, ['vertex'], credentials);
    await clients('vertex').messages.create(messagesRequest(task));
    await clients().messages.create({ ...messagesRequest(task), messages: [...messagesRequest(task).messages, { role: 'assistant', content: 'one' }, { role: 'user', content: 'again' }] });
    expect(endpoints.requests.map((r) => r.platform)).toEqual(['vertex']);
    expect(fake.requestsFor(task)).toHaveLength(2);
    expect(() => clients('foundry')).toThrow(ModelProviderError);
  });
});

describe('openModelClients at start, with settings or credentials missing', () => {
  const refusal = async (env: NodeJS.ProcessEnv, creds: ModelCredentials = credentials) => {
    const error = await openModelClients(parseWorkerSettings(env).model, [], creds).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ModelProviderError);
    return (error as Error).message;
  };

  it('names AWS_REGION, and the AWS credential variables when the chain finds none', async () => {
    expect(await refusal({ ...envFor('bedrock'), AWS_REGION: '' })).toMatch(/"bedrock" cannot be used.*AWS_REGION is not set/s);
    const noCredentials = { aws: () => Promise.reject(new Error('Could not load credentials from any providers')) };
    const message = await refusal(envFor('bedrock'), noCredentials);
    expect(message).toContain('Could not load credentials from any providers');
    expect(message).toContain('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
    expect(message).toContain('AWS_BEARER_TOKEN_BEDROCK');
  });

  it('names CLOUD_ML_REGION, Application Default Credentials and ANTHROPIC_VERTEX_PROJECT_ID for Vertex AI', async () => {
    expect(await refusal({ ...envFor('vertex'), CLOUD_ML_REGION: '' })).toContain('CLOUD_ML_REGION is not set');
    const noToken = { google: { getRequestHeaders: () => Promise.reject(new Error('Could not load the default credentials')) } };
    expect(await refusal(envFor('vertex'), noToken)).toMatch(/Could not load the default credentials.*gcloud auth application-default login/s);
    const noProject = { google: { getRequestHeaders: async () => new Headers() } };
    expect(await refusal({ ...envFor('vertex'), ANTHROPIC_VERTEX_PROJECT_ID: '' }, noProject)).toContain('Set ANTHROPIC_VERTEX_PROJECT_ID');
  });

  it('names ANTHROPIC_FOUNDRY_API_KEY and ANTHROPIC_FOUNDRY_RESOURCE for Foundry', async () => {
    expect(await refusal({ ...envFor('foundry'), ANTHROPIC_FOUNDRY_API_KEY: '' })).toContain('ANTHROPIC_FOUNDRY_API_KEY is not set');
    expect(await refusal({ ...envFor('foundry'), ANTHROPIC_FOUNDRY_BASE_URL: '' })).toContain('ANTHROPIC_FOUNDRY_RESOURCE');
  });

  it('names ANTHROPIC_API_KEY when anthropic is chosen by name or by default for an agent that names none, and checks nothing without agents', async () => {
    expect(await refusal({ AGENT_MODEL_PROVIDER: 'anthropic' })).toContain('ANTHROPIC_API_KEY is not set');
    // An agent that names no provider calls the worker's, Anthropic by default: its key is checked at start.
    await expect(openModelClients(parseWorkerSettings({}).model, [undefined])).rejects.toThrow(/ANTHROPIC_API_KEY is not set/);
    await expect(openModelClients(parseWorkerSettings({}).model, [])).resolves.toBeTypeOf('function');
  });

  it('says what to install when a platform SDK is missing (they are optional peer dependencies)', () => {
    expect(() => loadPlatformSdk('bedrock', '@anthropic-ai/no-such-sdk')).toThrow(
      'The model provider "bedrock" cannot be used, so the worker did not start: its client, @anthropic-ai/no-such-sdk, is not installed. Install it next to durable-agent (npm install @anthropic-ai/no-such-sdk) and start the worker again.',
    );
  });

  it('refuses an unknown provider name in the settings', () => {
    expect(() => parseWorkerSettings({ AGENT_MODEL_PROVIDER: 'azure' })).toThrow(/AGENT_MODEL_PROVIDER="azure" must be one of anthropic, bedrock, vertex, foundry/);
  });
});
