import { createRequire } from 'node:module';
import type { ProviderSettings } from '../../config/provider-settings';
import { loadPlatformSdk, ModelProviderError, withinDeadline, type ModelClient, type ModelCredentials } from './model-client';

type AwsCredentialProvider = NonNullable<ModelCredentials['aws']>;
const WHAT_TO_SET =
  'set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, or sign in with `aws sso login`, or run with an IAM role), or AWS_BEARER_TOKEN_BEDROCK for a Bedrock API key';

/**
 * The AWS chain the Bedrock SDK would use by itself (environment first, then the Node default chain:
 * profiles, SSO, web identity, container and instance roles), loaded from the SDK's own dependencies
 * so it is the same code that signs the requests.
 */
function defaultAwsChain(): AwsCredentialProvider {
  const fromSdk = createRequire(require.resolve('@anthropic-ai/bedrock-sdk'));
  const { createCredentialChain, fromEnv, fromNodeProviderChain } = fromSdk('@aws-sdk/credential-providers') as typeof import('@aws-sdk/credential-providers');
  return createCredentialChain(fromEnv(), fromNodeProviderChain()) as AwsCredentialProvider;
}

/**
 * A Bedrock client whose credentials were found before the worker polls: a Bedrock API key
 * (AWS_BEARER_TOKEN_BEDROCK), or AWS credentials resolved once here and reused (the chain refreshes
 * them when they expire) for SigV4.
 */
export async function openBedrockClient(settings: ProviderSettings['bedrock'], credentials: ModelCredentials, timeoutMs: number): Promise<ModelClient> {
  const { AnthropicBedrock } = loadPlatformSdk<typeof import('@anthropic-ai/bedrock-sdk')>('bedrock', '@anthropic-ai/bedrock-sdk');
  const region = settings.region;
  if (!region) throw new ModelProviderError('bedrock', 'AWS_REGION is not set. Set it to the region where your Bedrock models are enabled, e.g. AWS_REGION=us-east-1.');
  const baseURL = settings.baseUrl ?? `https://bedrock-runtime.${region}.amazonaws.com`;
  const common = { awsRegion: region, baseURL, maxRetries: 0, timeout: timeoutMs };
  if (settings.apiKey) return new AnthropicBedrock({ ...common, apiKey: settings.apiKey });
  const chain = credentials.aws ?? defaultAwsChain();
  try {
    await withinDeadline(chain(), 'finding AWS credentials');
  } catch (error) {
    throw new ModelProviderError('bedrock', `no AWS credentials were found (${(error as Error).message}). To reach Bedrock, ${WHAT_TO_SET}.`);
  }
  return new AnthropicBedrock({ ...common, apiKey: null, providerChainResolver: () => Promise.resolve(chain) });
}
