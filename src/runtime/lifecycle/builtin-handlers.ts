import type { LifecycleHandler } from './lifecycle-handler';
import { MetricsCollector } from './metrics-collector';
import { startMetricsServer, type MetricsServer } from './metrics-server';

export interface BuiltinHandlers {
  /** Pass these to `createAgentWorker({ lifecycleHandlers })`. */
  handlers: LifecycleHandler[];
  metrics: MetricsCollector;
  /** The Prometheus endpoint, when `AGENT_METRICS_PORT` is set. */
  metricsServer?: MetricsServer;
  /** Stops the endpoint. */
  close(): Promise<void>;
}

/**
 * The metrics collector (and its endpoint, when the worker settings' `observability.metrics` is set,
 * from AGENT_METRICS_PORT/HOST), plus any handlers the caller adds (such as the console logger). Shared by
 * `npm run worker` and `npm start` so both behave the same. The audit log is not a lifecycle handler:
 * it is written by the activities themselves, before each decision or call is acknowledged (see
 * src/runtime/audit/).
 */
export async function createBuiltinHandlers(
  /** `settings.observability.metrics`: where to serve the endpoint; off when undefined. */
  endpoint: { port: number; host: string } | undefined,
  extra: LifecycleHandler[] = [],
  /** Where the Temporal runtime serves its own metrics, forwarded on our endpoint (see observability/runtime.ts). */
  temporalMetricsUrl?: string,
): Promise<BuiltinHandlers> {
  const metrics = new MetricsCollector();
  const metricsServer = endpoint ? await startMetricsServer(metrics, { ...endpoint, temporalMetricsUrl }) : undefined;
  return {
    handlers: [...extra, metrics],
    metrics,
    metricsServer,
    async close() {
      await metricsServer?.close();
    },
  };
}
