import type { ModelProvider } from '../../contract/model-provider';

/**
 * The name each platform gives the Claude models of the tiers' defaults (model-tiers.ts). Bedrock
 * names models `anthropic.<id>-v1:0`; Vertex AI and Foundry use Anthropic's ids. An id that is not
 * here goes to the provider as it is, so an agent or AGENT_MODEL_* may name a platform's model
 * (a Bedrock inference profile, a Foundry deployment) directly; AGENT_<PROVIDER>_MODELS adds or
 * replaces names without a release.
 */
export const PROVIDER_MODEL_NAMES: Record<Exclude<ModelProvider, 'anthropic'>, Record<string, string>> = {
  bedrock: {
    'claude-haiku-5-5': 'anthropic.claude-haiku-5-5-v1:0',
    'claude-sonnet-5-5': 'anthropic.claude-sonnet-5-5-v1:0',
    'claude-opus-5-5': 'anthropic.claude-opus-5-5-v1:0',
  },
  vertex: {},
  foundry: {},
};

/** The provider's name for an Anthropic model id: the configured map first, then the built-in one. */
export function providerModelName(provider: ModelProvider, id: string, configured: Record<string, string> = {}): string {
  if (provider === 'anthropic') return id;
  return configured[id] ?? PROVIDER_MODEL_NAMES[provider][id] ?? id;
}
