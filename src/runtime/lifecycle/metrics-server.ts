import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsCollector } from './metrics-collector';
import { DurableAgentError } from '../../contract/durable-agent-error';

/** The metrics endpoint could not listen (port taken, bad host); the message says which setting to change. */
export class MetricsServerError extends DurableAgentError {
  override readonly name = 'MetricsServerError';
  readonly code = 'METRICS_SERVER_FAILED';
  readonly retryable = false;
}

export interface MetricsServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Loopback by default: the endpoint has no authentication, so exposing it is a deliberate choice. */
  host?: string;
  /**
   * The Temporal worker's own metrics (core's Prometheus endpoint, see observability/runtime.ts),
   * appended to ours so one scrape gets both: `temporal_*` beside `durable_agent_*`.
   */
  temporalMetricsUrl?: string;
}

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9464/metrics */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Reads `AGENT_METRICS_PORT` and `AGENT_METRICS_HOST`. The endpoint is off unless a port is set, so a
 * worker never opens a port nobody asked for. Called by parseWorkerSettings, once.
 */
export function metricsServerOptionsFromEnv(env: NodeJS.ProcessEnv): MetricsServerOptions | undefined {
  const raw = env.AGENT_METRICS_PORT?.trim();
  if (!raw) return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new MetricsServerError(`AGENT_METRICS_PORT must be a port number (0-65535), not "${raw}".`);
  }
  return { port, host: env.AGENT_METRICS_HOST?.trim() || '127.0.0.1' };
}

/** Temporal's metrics text, or a comment saying why it is missing (a scrape must not fail for it). */
async function temporalMetrics(url: string | undefined): Promise<string> {
  if (!url) return '';
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.ok ? await res.text() : `# Temporal worker metrics unavailable: HTTP ${res.status} from ${url}\n`;
  } catch (error) {
    return `# Temporal worker metrics unavailable: ${(error as Error).message}\n`;
  }
}

/** Serves `GET /metrics` (Prometheus text format) and `GET /metrics.json` (the same figures as JSON). */
export function startMetricsServer(collector: MetricsCollector, options: MetricsServerOptions): Promise<MetricsServer> {
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    if (req.method === 'GET' && path === '/metrics') {
      const [ours, temporal] = await Promise.all([collector.registry.metrics(), temporalMetrics(options.temporalMetricsUrl)]);
      res.writeHead(200, { 'content-type': collector.registry.contentType });
      res.end(`${ours}${temporal ? `\n${temporal}` : ''}`);
    } else if (req.method === 'GET' && path === '/metrics.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(collector.getMetrics(), null, 2));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found. Metrics are at /metrics (Prometheus) and /metrics.json.\n');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use' : error.message;
      reject(new MetricsServerError(`Cannot serve metrics on ${host}:${options.port} (${why}). Set AGENT_METRICS_PORT to another port, or unset it.`));
    });
    server.listen(options.port, host, () => {
      const { port } = server.address() as AddressInfo;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${port}/metrics`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
