/** Connection settings shared by the worker and the client, from the standard Temporal env vars. */
export interface TemporalSettings {
  address: string;
  namespace: string;
  taskQueue: string;
}

export const DEFAULT_TASK_QUEUE = 'agents';

export function temporalSettings(env: NodeJS.ProcessEnv = process.env): TemporalSettings {
  return {
    address: env.TEMPORAL_ADDRESS || 'localhost:7233',
    namespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE || DEFAULT_TASK_QUEUE,
  };
}
