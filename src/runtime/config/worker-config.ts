import type { DataConverter } from '@temporalio/common';
import { dataConverterFromEnv } from '../codec/data-converter';
import { temporalConnection, type TemporalConnection } from './temporal-connection';

/**
 * Connection settings shared by the worker, agentctl, `npm start` and the benchmarks: where Temporal
 * is (the standard Temporal variables and profiles, see temporal-connection.ts), our own task queue,
 * and how payloads are encoded (encrypted when AGENT_ENCRYPTION_KEY is set, see src/runtime/codec/).
 */
export interface TemporalSettings {
  address: string;
  namespace: string;
  taskQueue: string;
  /** TLS, API key and gRPC metadata as well as the address, for `Connection` and `NativeConnection`. */
  connection: TemporalConnection['options'];
  /** Where the connection settings came from, for messages. */
  source: string;
  /** The payload codec chain; every client and worker of a namespace must use the same one. */
  dataConverter: DataConverter;
}

export const DEFAULT_TASK_QUEUE = 'agents';

export function temporalSettings(env: NodeJS.ProcessEnv): TemporalSettings {
  const connection = temporalConnection(env);
  return {
    address: connection.address,
    namespace: connection.namespace,
    taskQueue: env.TEMPORAL_TASK_QUEUE || DEFAULT_TASK_QUEUE,
    connection: connection.options,
    source: connection.source,
    dataConverter: dataConverterFromEnv(env),
  };
}
