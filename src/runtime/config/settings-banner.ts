import { SETTINGS } from './settings-catalog';
import type { WorkerSettings } from './worker-settings';
import { DEFAULT_LIVE_RELAY } from '../live/live-settings';

/** A secret shows only that it is set and its last four characters, enough to tell two keys apart. */
export function maskSecret(value: string): string {
  return value.length > 12 ? `set (…${value.slice(-4)})` : 'set';
}

/** A connection URL shows its scheme and host, never its password. */
function withoutPassword(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return value;
  }
}

/**
 * What a worker does with the settings that are not only read but served or written: the audit log
 * it writes, the metrics endpoint it serves, whether lifecycle events are printed. `createAgentWorker`
 * and `runAgentWorker` fill it in, so their banner says what is on and what is off.
 */
export interface ServedSettings {
  /** The audit log this worker writes; undefined when it writes none. */
  auditLog: string | undefined;
  /** The metrics endpoint's URL; undefined when none is served. */
  metricsUrl: string | undefined;
  /** Whether lifecycle events are printed, one line each (`runAgentWorker` and `npm run worker` do). */
  consoleLogger: boolean;
  /** Whether spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT, or a `tracing` option). */
  tracing: boolean;
}

/**
 * The settings the worker started with, one `name: value` per line for the start banner, so an
 * operator sees what this process actually uses. Secrets are masked (settings-catalog.ts marks them).
 * With `served` (what `AgentWorker.describe()` passes), a line whose setting asks for something the
 * worker does not do says so, instead of promising it.
 */
export function describeWorkerSettings(settings: WorkerSettings, served?: ServedSettings): string[] {
  const secret = (name: string) => SETTINGS.find((s) => s.name === name)?.secret === true;
  const show = (name: string, value: string | number | undefined): string => {
    if (value === undefined || value === '') return `${name}: (unset)`;
    const text = String(value);
    if (name === 'AGENT_CONVERSATION_STORE') return `${name}: ${withoutPassword(text)}`;
    return `${name}: ${secret(name) ? maskSecret(text) : text}`;
  };
  const { model, limits, workspace, sandbox, temporal, audit, observability } = settings;
  const live = settings.live ?? { listen: DEFAULT_LIVE_RELAY };
  return [
    show('TEMPORAL_ADDRESS', `${temporal.address} (namespace ${temporal.namespace}, from ${temporal.source})`),
    show('TEMPORAL_TASK_QUEUE', temporal.taskQueue),
    show('AGENT_DEPLOYMENT_NAME', settings.deployment ? `${settings.deployment.name} (build ${settings.deployment.buildId}; agentRun PINNED to the build that started it)` : 'unset (an unversioned worker)'),
    show('ANTHROPIC_API_KEY', model.apiKey),
    show('ANTHROPIC_BASE_URL', model.baseUrl),
    show('AGENT_MODEL_PROVIDER', model.provider ?? 'anthropic'),
    show('AGENT_MODEL_FAST', model.tiers.fast),
    show('AGENT_MODEL_BALANCED', model.tiers.balanced),
    show('AGENT_MODEL_POWERFUL', model.tiers.powerful),
    show('AGENT_WORKSPACE', workspace.root),
    show('AGENT_CONFIG', workspace.configFile),
    show('AGENT_SANDBOX', sandbox.mode ?? 'bwrap when found'),
    show('AGENT_SANDBOX_USER', sandbox.user),
    show('AGENT_TOOL_ENV', sandbox.toolEnv.join(',')),
    show('AGENT_COMMAND_CGROUPS', sandbox.commandCgroups === 'off' ? 'off (limits.totalMemoryBytes, totalProcesses and cpuCores are not enforced; only the rlimits hold)' : 'auto'),
    show('AGENT_SCAN_MAX_ENTRIES', sandbox.scanMaxEntries),
    show('AGENT_CONVERSATION_STORE', settings.conversationStore),
    show('AGENT_APPROVERS_FILE', settings.approversFile),
    show('AGENT_AUDIT_LOG', served ? auditLine(audit.log, served.auditLog) : (audit.log ?? 'off')),
    show('AGENT_AUDIT_HEAD_DIR', audit.headDir),
    show('AGENT_LIVE_RELAY', live.listen ? `${live.listen.host}:${live.listen.port || 'a free port'}${live.url ? ` (watchers told ${live.url})` : ''}` : 'off'),
    show('AGENT_METRICS_PORT', served ? metricsLine(observability.metrics, served.metricsUrl) : observability.metrics ? `${observability.metrics.host}:${observability.metrics.port}` : 'off'),
    show('OTEL_EXPORTER_OTLP_ENDPOINT', served && !served.tracing && observability.otlpTracesUrl ? `${observability.otlpTracesUrl} (not exported: this worker was given no tracing)` : (observability.otlpTracesUrl ?? 'off')),
    ...(served ? [`lifecycle events: ${served.consoleLogger ? 'printed, one line each' : 'not printed (pass a ConsoleLifecycleLogger in lifecycleHandlers, or use runAgentWorker)'}`] : []),
    show('AGENT_ENCRYPTION_KEY', settings.env.AGENT_ENCRYPTION_KEY),
    show('AGENT_MAX_CACHED_WORKFLOWS', limits.maxCachedWorkflows ?? "the SDK's default"),
    show('AGENT_MODEL_IDLE_SECONDS', limits.modelIdleSeconds),
    show('AGENT_PROMPT_CACHE', limits.promptCache),
  ];
}

/** The audit line of a worker: the file it writes, or why it writes none although the settings name one. */
function auditLine(configured: string | undefined, written: string | undefined): string {
  if (written) return `${written} (written)`;
  return configured ? `off (the settings name ${configured}, but this worker was built with auditLog: false)` : 'off';
}

/** The metrics line of a worker: the endpoint it serves, or that it serves none although the settings ask. */
function metricsLine(configured: { host: string; port: number } | undefined, url: string | undefined): string {
  if (url) return `${url} (served)`;
  return configured ? `${configured.host}:${configured.port} (not served: createAgentWorker serves no metrics endpoint; use runAgentWorker, or createBuiltinHandlers)` : 'off';
}
