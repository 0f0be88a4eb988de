import type Anthropic from '@anthropic-ai/sdk';
import type { ModelProvider } from '../../../contract/model-provider';
import type { WorkerSettings } from '../../config/worker-settings';
import { createAnthropicClient } from '../anthropic-client';
import { providerModelName } from '../provider-models';
import { openBedrockClient } from './bedrock-client';
import { openFoundryClient } from './foundry-client';
import { ModelProviderError, type ModelClient, type ModelCredentials } from './model-client';
import { openVertexClient } from './vertex-client';

/** A model call may stream for long; Temporal's heartbeat and idle checks catch a hung one sooner. */
const REQUEST_TIMEOUT_MS = 10 * 60 * 1000;

/** Model clients by provider; no provider means the worker's own (AGENT_MODEL_PROVIDER). */
export type ModelClients = (provider?: ModelProvider) => ModelClient;

/**
 * Requests name Anthropic's model ids (the tiers, an agent's model); each platform gets its own name
 * for them here, in one place, so the request builders, the judge and the summarizer need not know.
 */
function withProviderModelNames(client: ModelClient, rename: (id: string) => string): ModelClient {
  const { messages } = client;
  const create = (params: Anthropic.MessageCreateParams, options?: Anthropic.RequestOptions) => messages.create({ ...params, model: rename(params.model) } as never, options);
  const stream = (params: Anthropic.MessageStreamParams, options?: Anthropic.RequestOptions) => messages.stream({ ...params, model: rename(params.model) }, options);
  return { messages: { create: create as Anthropic.Messages['create'], stream: stream as Anthropic.Messages['stream'] } };
}

/**
 * Opens a client for every provider the worker's settings or its agents name, before the worker
 * polls: a provider without its settings or credentials stops the start with what to set
 * (ModelProviderError). Every provider some agent will call is checked, the worker's own included
 * when an agent names none: a missing ANTHROPIC_API_KEY stops the start here, not the first run.
 */
export async function openModelClients(model: WorkerSettings['model'], named: Iterable<ModelProvider | undefined>, credentials: ModelCredentials = {}): Promise<ModelClients> {
  const workerProvider = model.provider ?? 'anthropic';
  // An agent that names no provider uses the worker's, so the worker's own is checked whenever one does.
  const providers = new Set<ModelProvider>([...named].map((provider) => provider ?? workerProvider));
  if (model.provider) providers.add(model.provider);
  const clients = new Map<ModelProvider, ModelClient>();
  for (const provider of providers) {
    if (provider === 'anthropic') {
      if (!model.apiKey) throw new ModelProviderError('anthropic', 'ANTHROPIC_API_KEY is not set, and agents of this worker call Anthropic. Set it to a key from console.anthropic.com (or point ANTHROPIC_BASE_URL at a compatible server and set any key), or give the agents another provider (AGENT_MODEL_PROVIDER).');
      continue;
    }
    const opened =
      provider === 'bedrock' ? await openBedrockClient(model.bedrock, credentials, REQUEST_TIMEOUT_MS)
      : provider === 'vertex' ? await openVertexClient(model.vertex, credentials, REQUEST_TIMEOUT_MS)
      : await openFoundryClient(model.foundry, credentials, REQUEST_TIMEOUT_MS);
    const configured = model[provider].models;
    clients.set(provider, withProviderModelNames(opened, (id) => providerModelName(provider, id, configured)));
  }
  let anthropic: ModelClient | undefined;
  return (provider = workerProvider) => {
    if (provider === 'anthropic') return (anthropic ??= createAnthropicClient(model));
    const client = clients.get(provider);
    // Every provider an agent names was opened above; reaching this is a bug, not a setting.
    if (!client) throw new ModelProviderError(provider, 'no agent of this worker names it, so it was not opened at start.');
    return client;
  };
}
