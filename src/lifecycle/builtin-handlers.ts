import { AuditLog, auditLogPathFromEnv } from './audit-log';
import type { LifecycleHandler } from './lifecycle-handler';
import { MetricsCollector } from './metrics-collector';
import { metricsServerOptionsFromEnv, startMetricsServer, type MetricsServer } from './metrics-server';

export interface BuiltinHandlers {
  /** Pass these to `createAgentWorker({ lifecycleHandlers })`. */
  handlers: LifecycleHandler[];
  metrics: MetricsCollector;
  audit?: AuditLog;
  auditFile?: string;
  /** The Prometheus endpoint, when `AGENT_METRICS_PORT` is set. */
  metricsServer?: MetricsServer;
  /** Stops the endpoint and waits for the audit log's pending lines. */
  close(): Promise<void>;
}

/**
 * The metrics collector (and its endpoint, if `AGENT_METRICS_PORT` is set) and the audit log (unless
 * `AGENT_AUDIT_LOG=off`), configured from the environment, plus any handlers the caller adds (such as
 * the console logger). Shared by `npm run worker` and `npm start` so both behave the same.
 */
export async function createBuiltinHandlers(env: NodeJS.ProcessEnv = process.env, extra: LifecycleHandler[] = []): Promise<BuiltinHandlers> {
  const metrics = new MetricsCollector();
  const auditFile = auditLogPathFromEnv(env);
  const audit = auditFile ? new AuditLog({ file: auditFile }) : undefined;
  const endpoint = metricsServerOptionsFromEnv(env);
  const metricsServer = endpoint ? await startMetricsServer(metrics, endpoint) : undefined;
  return {
    handlers: [...extra, metrics, ...(audit ? [audit] : [])],
    metrics,
    audit,
    auditFile,
    metricsServer,
    async close() {
      await metricsServer?.close();
      await audit?.flush();
    },
  };
}
