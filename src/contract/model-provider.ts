import { z } from 'zod';

/**
 * Where the worker reaches Claude: Anthropic's own API, Amazon Bedrock, Google Vertex AI or Microsoft
 * Foundry. Each is served through Anthropic's SDK client for that platform; the names are a contract
 * (AGENT_MODEL_PROVIDER and an agent's `provider` take them).
 */
export const ModelProviderSchema = z.enum(['anthropic', 'bedrock', 'vertex', 'foundry']);
export type ModelProvider = z.infer<typeof ModelProviderSchema>;
