import { DefaultLogger, Runtime, type Logger } from '@temporalio/worker';
import net from 'node:net';

/** A port the kernel says is free on loopback now. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Installs the Temporal runtime of a worker process (once, before anything touches it). When the
 * agent's metrics endpoint is on (AGENT_METRICS_PORT), the runtime's own Prometheus exporter (task
 * latencies, slots, poll results, cache size; all `temporal_*`) listens on loopback, at
 * AGENT_TEMPORAL_METRICS_ADDRESS or a free port, and our endpoint forwards it: one scrape, both sets.
 * Takes the worker settings' `observability` (parsed once, see config/worker-settings.ts). Returns the URL
 * to forward, if any.
 */
export async function installWorkerRuntime(
  observability: { metrics?: unknown; temporalMetricsAddress?: string },
  logger: Logger = new DefaultLogger('INFO'),
): Promise<{ temporalMetricsUrl?: string }> {
  if (!observability.metrics) {
    Runtime.install({ logger });
    return {};
  }
  const bindAddress = observability.temporalMetricsAddress || `127.0.0.1:${await freeLoopbackPort()}`;
  Runtime.install({ logger, telemetryOptions: { metrics: { prometheus: { bindAddress } } } });
  return { temporalMetricsUrl: `http://${bindAddress}/metrics` };
}
