import { describeWorkerSettings } from './runtime/config/settings-banner';
import { createBuiltinHandlers } from './runtime/lifecycle/builtin-handlers';
import { ConsoleLifecycleLogger } from './runtime/lifecycle/console-logger';
import { installWorkerRuntime } from './runtime/observability/runtime';
import { startConfiguredTracing } from './runtime/observability/tracing';
import { createAgentWorker, workerSettingsFrom } from './runtime/worker-setup/create-agent-worker';

/**
 * `npm run worker`: serves the agent task queue until SIGINT/SIGTERM (the Temporal runtime shuts the
 * worker down on those signals). The settings are read from the environment once, here, printed
 * (secrets masked) and handed to everything else. Lifecycle events go to the console, the metrics
 * collector (served on `AGENT_METRICS_PORT` when set) and the audit log: `AGENT_AUDIT_LOG`, or by
 * default a log of this process's own in `AGENT_AUDIT_DIR` (./.agent-audit/<host>-<pid>.log), so a
 * second worker started in the same folder has its own log and starts too.
 */
async function run(): Promise<void> {
  const settings = workerSettingsFrom(process.env);
  console.log(`Settings:\n${describeWorkerSettings(settings).map((line) => `  ${line}`).join('\n')}`);
  const { temporalMetricsUrl } = await installWorkerRuntime(settings.observability);
  const tracing = startConfiguredTracing(settings.observability.tracing);
  const builtins = await createBuiltinHandlers(settings.observability.metrics, [new ConsoleLifecycleLogger({ includeTimestamps: true })], temporalMetricsUrl);
  try {
    const auditFile = settings.audit.log;
    const { worker, registry, close } = await createAgentWorker({ settings, lifecycleHandlers: builtins.handlers, auditLog: auditFile, tracing });
    const { taskQueue, address, namespace } = settings.temporal;
    console.log(`Worker polling task queue "${taskQueue}" on ${address} (namespace ${namespace}); agents: ${[...registry.agents.keys()].join(', ')}`);
    if (builtins.metricsServer) console.log(`Metrics: ${builtins.metricsServer.url}${temporalMetricsUrl ? ' (with the Temporal worker metrics)' : ''}`);
    if (tracing) console.log(`Tracing: OTLP to ${settings.observability.otlpTracesUrl}`);
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
