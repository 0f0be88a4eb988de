import { z } from 'zod';
import { ModelProviderSchema, type ModelProvider } from '../../contract/model-provider';

/**
 * The settings of the model providers besides Anthropic's own API (Bedrock, Vertex AI, Foundry),
 * parsed with the rest of the worker's settings (worker-settings.ts). The variable names are the
 * ones Anthropic's platform SDKs and the clouds' tools already use (AWS_REGION, CLOUD_ML_REGION,
 * ANTHROPIC_VERTEX_PROJECT_ID, ANTHROPIC_FOUNDRY_API_KEY...), so a deployment that set them for
 * another Claude client needs nothing new. Credentials themselves (AWS keys, profiles and roles,
 * Google Application Default Credentials) come from each cloud's usual chain, not from here.
 */

const optionalText = z.string().trim().optional().transform((v) => (v ? v : undefined));
const optionalUrl = optionalText.refine((v) => !v || URL.canParse(v), 'must be a URL such as https://example.com');

/**
 * `claude-id=provider-name` pairs, comma-separated: the provider's name for an Anthropic model id.
 * They replace the built-in names (provider-models.ts) for the ids they list.
 */
const ModelMapSchema = z
  .string()
  .optional()
  .transform((v) => (v ?? '').split(',').map((pair) => pair.trim()).filter(Boolean))
  .refine((pairs) => pairs.every((pair) => /^[^=\s]+=[^=\s]+$/.test(pair)), 'must be comma-separated claude-id=provider-model-name pairs, e.g. claude-sonnet-5-5=eu.anthropic.claude-sonnet-5-5-v1:0')
  .transform((pairs) => Object.fromEntries(pairs.map((pair) => pair.split('=') as [string, string])));

export const ProviderSettingsShape = {
  /** AGENT_MODEL_PROVIDER: where every agent's model calls go unless the agent names another; unset means anthropic. */
  provider: optionalText
    .refine((v) => !v || ModelProviderSchema.safeParse(v).success, `must be one of ${ModelProviderSchema.options.join(', ')}`)
    .transform((v) => v as ModelProvider | undefined),
  bedrock: z.object({ region: optionalText, apiKey: optionalText, baseUrl: optionalUrl, models: ModelMapSchema }),
  vertex: z.object({ region: optionalText, projectId: optionalText, baseUrl: optionalUrl, models: ModelMapSchema }),
  foundry: z.object({ apiKey: optionalText, resource: optionalText, baseUrl: optionalUrl, models: ModelMapSchema }),
};
export type ProviderSettings = z.infer<z.ZodObject<typeof ProviderSettingsShape>>;

/** Which variable each field comes from (the fields sit under `model` in the worker's settings). */
export const PROVIDER_SETTING_VARIABLES: Record<string, string> = {
  'model.provider': 'AGENT_MODEL_PROVIDER',
  'model.bedrock.region': 'AWS_REGION',
  'model.bedrock.apiKey': 'AWS_BEARER_TOKEN_BEDROCK',
  'model.bedrock.baseUrl': 'ANTHROPIC_BEDROCK_BASE_URL',
  'model.bedrock.models': 'AGENT_BEDROCK_MODELS',
  'model.vertex.region': 'CLOUD_ML_REGION',
  'model.vertex.projectId': 'ANTHROPIC_VERTEX_PROJECT_ID',
  'model.vertex.baseUrl': 'ANTHROPIC_VERTEX_BASE_URL',
  'model.vertex.models': 'AGENT_VERTEX_MODELS',
  'model.foundry.apiKey': 'ANTHROPIC_FOUNDRY_API_KEY',
  'model.foundry.resource': 'ANTHROPIC_FOUNDRY_RESOURCE',
  'model.foundry.baseUrl': 'ANTHROPIC_FOUNDRY_BASE_URL',
  'model.foundry.models': 'AGENT_FOUNDRY_MODELS',
};
