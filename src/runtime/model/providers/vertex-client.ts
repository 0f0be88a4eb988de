import { createRequire } from 'node:module';
import type { AuthClient } from 'google-auth-library';
import type { ProviderSettings } from '../../config/provider-settings';
import { loadPlatformSdk, ModelProviderError, withinDeadline, type ModelClient, type ModelCredentials } from './model-client';

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const WHAT_TO_SET =
  'run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service account key file, or run with an attached service account';

/** Application Default Credentials, through the google-auth-library the Vertex SDK itself depends on. */
async function defaultGoogleClient(): Promise<NonNullable<ModelCredentials['google']>> {
  const fromSdk = createRequire(require.resolve('@anthropic-ai/vertex-sdk'));
  const { GoogleAuth } = fromSdk('google-auth-library') as typeof import('google-auth-library');
  return new GoogleAuth({ scopes: SCOPE }).getClient();
}

/**
 * A Vertex AI client whose Google credentials gave a token before the worker polls. The project is
 * ANTHROPIC_VERTEX_PROJECT_ID, else the credentials' own project.
 */
export async function openVertexClient(settings: ProviderSettings['vertex'], credentials: ModelCredentials, timeoutMs: number): Promise<ModelClient> {
  const { AnthropicVertex } = loadPlatformSdk<typeof import('@anthropic-ai/vertex-sdk')>('vertex', '@anthropic-ai/vertex-sdk');
  const region = settings.region;
  if (!region) throw new ModelProviderError('vertex', 'CLOUD_ML_REGION is not set. Set it to the Vertex AI region of your Claude models, e.g. CLOUD_ML_REGION=us-east5, or global.');
  let authClient: NonNullable<ModelCredentials['google']>;
  try {
    authClient = credentials.google ?? (await withinDeadline(defaultGoogleClient(), 'finding Google credentials'));
    await withinDeadline(authClient.getRequestHeaders(), 'getting a Google access token');
  } catch (error) {
    throw new ModelProviderError('vertex', `no Google credentials were found (${(error as Error).message}). To reach Vertex AI, ${WHAT_TO_SET}.`);
  }
  const projectId = settings.projectId ?? authClient.projectId ?? undefined;
  if (!projectId) {
    throw new ModelProviderError('vertex', 'no Google Cloud project is known: the credentials name none. Set ANTHROPIC_VERTEX_PROJECT_ID to the project where Claude is enabled.');
  }
  // The SDK types the client as google-auth-library's AuthClient; it only asks it for headers and a project.
  return new AnthropicVertex({ region, projectId, baseURL: settings.baseUrl ?? null, authClient: authClient as AuthClient, maxRetries: 0, timeout: timeoutMs });
}
