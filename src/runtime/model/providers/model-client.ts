import { createRequire } from 'node:module';
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelProvider } from '../../../contract/model-provider';
import { DurableAgentError } from '../../../contract/durable-agent-error';

/**
 * What the worker asks of a model client: the Messages API's `create` and `stream`. Anthropic's
 * client and its Bedrock, Vertex and Foundry clients all have them (the platform clients lack other
 * resources, such as batches), so everything that calls the model takes this, not `Anthropic`.
 */
export interface ModelClient {
  messages: Pick<Anthropic.Messages, 'create' | 'stream'>;
}

/**
 * Credentials a program embedding the worker hands over instead of the clouds' default chains
 * (`createAgentWorker({ modelCredentials })`): a role assumed in code, a workload identity, an Entra
 * token. Each replaces only its own provider's chain.
 */
export interface ModelCredentials {
  /** AWS credentials for Bedrock's SigV4 signature; default: the AWS SDK's chain (env, profile, SSO, container or instance role). */
  aws?: () => Promise<{ accessKeyId: string; secretAccessKey: string; sessionToken?: string; expiration?: Date }>;
  /** A google-auth-library AuthClient for Vertex AI; default: Application Default Credentials. */
  google?: { getRequestHeaders(url?: string | URL): Promise<Headers>; projectId?: string | null };
  /** A Microsoft Entra ID token for Foundry, asked for on every request; default: ANTHROPIC_FOUNDRY_API_KEY. */
  azureADTokenProvider?: () => Promise<string>;
}

/**
 * A provider cannot be used as configured (its SDK is not installed, a setting or its credentials
 * are missing). Raised while the worker starts, so no worker polls that would fail every model call.
 */
export class ModelProviderError extends DurableAgentError {
  override readonly name = 'ModelProviderError';
  readonly code = 'MODEL_PROVIDER_UNUSABLE';
  readonly retryable = false;
  constructor(readonly provider: ModelProvider, problem: string) {
    super(`The model provider "${provider}" cannot be used, so the worker did not start: ${problem}`);
  }
}

/** How long a credential chain may take at start (instance metadata lookups time out slowly off the cloud). */
export const CREDENTIAL_CHECK_MS = 20_000;

/** Runs a credential lookup with a deadline, so a chain that hangs does not hang the worker's start. */
export async function withinDeadline<T>(lookup: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${CREDENTIAL_CHECK_MS / 1000}s`)), CREDENTIAL_CHECK_MS);
  });
  try {
    return await Promise.race([lookup, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Loads an optional peer dependency (the platform SDKs), or says how to install it. They are loaded
 * only when a provider uses them, so an Anthropic-only deployment never loads (or needs) the AWS SDK.
 */
export function loadPlatformSdk<T>(provider: ModelProvider, name: string): T {
  try {
    return createRequire(__filename)(name) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new ModelProviderError(provider, `its client, ${name}, is not installed. Install it next to durable-agent (npm install ${name}) and start the worker again.`);
  }
}
