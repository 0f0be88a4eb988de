import { Client, Connection } from '@temporalio/client';
import type { TemporalSettings } from '../runtime/config/worker-config';
import { startConfiguredTracing, type TracingSettings } from '../runtime/observability/tracing';
import { unreachable } from '../runtime/config/connect-options';
import { parseClientSettings } from './client-settings';

/**
 * Connects to Temporal, turning a refused connection into an error a person can act on. `settings`
 * default to the client settings of `process.env` (tracing included); `tracing` is the client
 * settings' OpenTelemetry export (off when undefined).
 */
export async function connectClient(settings?: TemporalSettings, tracing?: TracingSettings): Promise<{ client: Client; close(): Promise<void> }> {
  // Called with no settings (as it could be from its first release): the environment's, with its tracing.
  if (!settings) {
    const fromEnv = parseClientSettings(process.env);
    return connectClient(fromEnv.temporal, fromEnv.tracing);
  }
  let connection: Connection;
  try {
    connection = await Connection.connect({ ...settings.connection, connectTimeout: '5s' });
    await connection.workflowService.getSystemInfo({});
  } catch (error) {
    throw unreachable(settings, error);
  }
  // With tracing on, a run started here is the root of its trace (the start span's context travels in headers).
  const traced = startConfiguredTracing(tracing, 'agentctl');
  return {
    client: new Client({ connection, namespace: settings.namespace, dataConverter: settings.dataConverter, plugins: traced ? [traced.plugin] : [] }),
    // A short-lived CLI must flush its spans (the start span roots the run's trace) before it exits.
    close: async () => {
      await traced?.forceFlush();
      await connection.close();
    },
  };
}
