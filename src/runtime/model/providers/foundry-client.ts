import type { ProviderSettings } from '../../config/provider-settings';
import { loadPlatformSdk, ModelProviderError, withinDeadline, type ModelClient, type ModelCredentials } from './model-client';

/**
 * A Microsoft Foundry client: a Foundry key (ANTHROPIC_FOUNDRY_API_KEY) or an Entra ID token
 * provider handed to `createAgentWorker`, tried once here; the resource name or an endpoint.
 */
export async function openFoundryClient(settings: ProviderSettings['foundry'], credentials: ModelCredentials, timeoutMs: number): Promise<ModelClient> {
  const { AnthropicFoundry } = loadPlatformSdk<typeof import('@anthropic-ai/foundry-sdk')>('foundry', '@anthropic-ai/foundry-sdk');
  if (!settings.resource && !settings.baseUrl) {
    throw new ModelProviderError('foundry', 'neither ANTHROPIC_FOUNDRY_RESOURCE nor ANTHROPIC_FOUNDRY_BASE_URL is set. Set ANTHROPIC_FOUNDRY_RESOURCE to your Foundry resource name.');
  }
  if (settings.resource && settings.baseUrl) {
    throw new ModelProviderError('foundry', 'both ANTHROPIC_FOUNDRY_RESOURCE and ANTHROPIC_FOUNDRY_BASE_URL are set. Keep one of them.');
  }
  const tokens = credentials.azureADTokenProvider;
  if (!settings.apiKey && !tokens) {
    throw new ModelProviderError('foundry', 'ANTHROPIC_FOUNDRY_API_KEY is not set. Set it to a key of your Foundry resource, or pass modelCredentials.azureADTokenProvider to createAgentWorker for Entra ID.');
  }
  if (!settings.apiKey && tokens) {
    try {
      await withinDeadline(tokens(), 'getting an Entra ID token');
    } catch (error) {
      throw new ModelProviderError('foundry', `the Entra ID token provider failed (${(error as Error).message}). Check the identity it signs in with, or set ANTHROPIC_FOUNDRY_API_KEY.`);
    }
  }
  const auth = settings.apiKey ? { apiKey: settings.apiKey } : { azureADTokenProvider: tokens };
  return new AnthropicFoundry({ ...auth, resource: settings.resource ?? null, baseURL: settings.baseUrl ?? null, maxRetries: 0, timeout: timeoutMs });
}
