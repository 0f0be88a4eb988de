import { auditLogPathFromEnv } from './audit/audit-path';
import { temporalSettings } from './config/worker-config';
import { createBuiltinHandlers } from './lifecycle/builtin-handlers';
import { ConsoleLifecycleLogger } from './lifecycle/console-logger';
import { installWorkerRuntime } from './observability/runtime';
import { tracingFromEnv } from './observability/tracing';
import { createAgentWorker } from './worker-setup/create-agent-worker';

/**
 * `npm run worker`: serves the agent task queue until SIGINT/SIGTERM (the Temporal runtime shuts the
 * worker down on those signals). Lifecycle events go to the console, the metrics collector (served
 * on `AGENT_METRICS_PORT` when set) and the audit log: `AGENT_AUDIT_LOG`, or by default a log of this
 * process's own in `AGENT_AUDIT_DIR` (./.agent-audit/<host>-<pid>.log), so a second worker started in
 * the same folder has its own log and starts too.
 */
async function run(): Promise<void> {
  const settings = temporalSettings();
  const { temporalMetricsUrl } = await installWorkerRuntime();
  const tracing = tracingFromEnv();
  const builtins = await createBuiltinHandlers(process.env, [new ConsoleLifecycleLogger({ includeTimestamps: true })], temporalMetricsUrl);
  try {
    const auditFile = auditLogPathFromEnv();
    const { worker, registry, close } = await createAgentWorker({ lifecycleHandlers: builtins.handlers, auditLog: auditFile, tracing });
    console.log(
      `Worker polling task queue "${settings.taskQueue}" on ${settings.address} (namespace ${settings.namespace}); agents: ${[...registry.agents.keys()].join(', ')}`,
    );
    if (builtins.metricsServer) console.log(`Metrics: ${builtins.metricsServer.url}${temporalMetricsUrl ? ' (with the Temporal worker metrics)' : ''}`);
    if (tracing) console.log(`Tracing: OTLP to ${process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT}`);
    if (auditFile) console.log(`Audit log: ${auditFile}`);
    try {
      await worker.run();
    } finally {
      await close();
      await tracing?.shutdown();
    }
  } finally {
    await builtins.close();
  }
}

run().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
