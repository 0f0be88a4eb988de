import { IllegalStateError } from '@temporalio/common';
import { createBuiltinHandlers } from '../lifecycle/builtin-handlers';
import { ConsoleLifecycleLogger } from '../lifecycle/console-logger';
import { installWorkerRuntime } from '../observability/runtime';
import { startConfiguredTracing } from '../observability/tracing';
import type { AgentWorkerOptions } from './agent-worker-options';
import { createAgentWorker, workerSettingsFrom } from './create-agent-worker';

export interface RunAgentWorkerOptions extends AgentWorkerOptions {
  /** Where the banner and the lifecycle lines go (default: `console.log`). */
  log?: (line: string) => void;
}

/**
 * Runs a worker exactly as `npm run worker` does, from a program of your own: the settings read once
 * and printed (secrets masked), the Temporal runtime installed with its metrics, the metrics endpoint
 * (AGENT_METRICS_PORT), one line per lifecycle event, tracing (OTEL_EXPORTER_OTLP_ENDPOINT) and the
 * hash-chained audit log (AGENT_AUDIT_LOG, or this process's own in AGENT_AUDIT_DIR). It polls until
 * SIGINT or SIGTERM, then closes everything. `createAgentWorker` builds the same worker without the
 * process-wide parts (the runtime, the endpoint, the lifecycle lines); its `describe()` says which.
 */
export async function runAgentWorker(options: RunAgentWorkerOptions = {}): Promise<void> {
  const { log = (line: string) => console.log(line), ...workerOptions } = options;
  const settings = workerOptions.settings ?? workerSettingsFrom(workerOptions.env ?? process.env);
  const { temporalMetricsUrl } = await installRuntimeOnce(settings.observability);
  const tracing = workerOptions.tracing ?? startConfiguredTracing(settings.observability.tracing);
  const logger = new ConsoleLifecycleLogger({ includeTimestamps: true, write: log });
  const builtins = await createBuiltinHandlers(settings.observability.metrics, [logger, ...(workerOptions.lifecycleHandlers ?? [])], temporalMetricsUrl);
  try {
    const agentWorker = await createAgentWorker({ ...workerOptions, settings, lifecycleHandlers: builtins.handlers, tracing });
    const banner = agentWorker.describe({ metricsUrl: builtins.metricsServer?.url });
    log(`Settings:\n${banner.map((line) => `  ${line}`).join('\n')}`);
    const { taskQueue, address, namespace } = agentWorker.settings.temporal;
    log(`Worker polling task queue "${taskQueue}" on ${address} (namespace ${namespace}); agents: ${[...agentWorker.registry.agents.keys()].join(', ')}`);
    // One line to find this process's log by (two workers in one folder each write their own).
    log(agentWorker.auditLog ? `Audit log: ${agentWorker.auditLog} (check it with npx agentctl audit verify ${agentWorker.auditLog})` : 'Audit log: off');
    try {
      await agentWorker.worker.run();
    } finally {
      await agentWorker.close();
      if (!workerOptions.tracing) await tracing?.shutdown();
    }
  } finally {
    await builtins.close();
  }
}

/**
 * The Temporal runtime may be installed once per process. A program that installed its own (or runs a
 * second worker) keeps it: the worker then runs without the runtime's own metrics, and says so.
 */
async function installRuntimeOnce(observability: Parameters<typeof installWorkerRuntime>[0]): Promise<{ temporalMetricsUrl?: string }> {
  try {
    return await installWorkerRuntime(observability);
  } catch (error) {
    if (!(error instanceof IllegalStateError)) throw error;
    if (observability.metrics) console.warn('WARNING: the Temporal runtime was installed before runAgentWorker; its own temporal_* metrics are not forwarded.');
    return {};
  }
}
