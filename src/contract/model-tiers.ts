import { z } from 'zod';

export const ModelTierSchema = z.enum(['fast', 'balanced', 'powerful']);
export type ModelTier = z.infer<typeof ModelTierSchema>;

/** Current Claude models; each can be overridden by env so a deployment can pin or upgrade them. */
const DEFAULT_MODELS: Record<ModelTier, string> = {
  fast: 'claude-haiku-5-5',
  balanced: 'claude-sonnet-5-5',
  powerful: 'claude-opus-5-5',
};

const ENV_VARS: Record<ModelTier, string> = {
  fast: 'AGENT_MODEL_FAST',
  balanced: 'AGENT_MODEL_BALANCED',
  powerful: 'AGENT_MODEL_POWERFUL',
};

/**
 * The model id for a tier, from the worker's settings. `env` is required on purpose: a default of
 * `process.env` let `createAgentWorker({ env })` be silently ignored by any caller that forgot it.
 */
export function modelIdForTier(tier: ModelTier, env: NodeJS.ProcessEnv): string {
  return env[ENV_VARS[tier]] || DEFAULT_MODELS[tier];
}
