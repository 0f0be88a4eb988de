import { z } from 'zod';
import { auditHeadDirFromEnv, auditLogPathFromEnv } from '../audit/audit-path';
import { metricsServerOptionsFromEnv } from '../lifecycle/metrics-server';
import { liveRelaySettingsFromEnv, type LiveRelaySettings } from '../live/live-settings';
import { modelIdForTier, ModelTierSchema, type ModelTier } from '../../contract/model-tiers';
import { tracingSettings, type TracingSettings } from '../observability/tracing';
import { temporalSettings, type TemporalSettings } from './worker-config';
import { collect } from './collect-problems';
import { PROVIDER_SETTING_VARIABLES, ProviderSettingsShape } from './provider-settings';
import { DurableAgentError } from '../../contract/durable-agent-error';
import { DEFAULT_SCAN_MAX_ENTRIES } from '../tools/sandbox/workspace-scan';
import { deploymentFrom, type WorkerDeployment } from './deployment-settings';

/**
 * The worker's settings, parsed from the environment once, when the worker starts (`createAgentWorker`
 * and `npm run worker`), and passed down from there: activities, the model client, the sandbox, the
 * audit log, tracing and metrics read these fields, not `process.env`. A bad value stops the start
 * with every problem named (WorkerSettingsError), so no worker polls half-configured.
 * The variables themselves are listed, with defaults and meanings, in settings-catalog.ts.
 */

const optionalText = z.string().trim().optional().transform((v) => (v ? v : undefined));
const PROMPT_CACHE_ALIASES: Record<string, '5m' | '1h' | 'off'> = { '': '5m', '5m': '5m', on: '5m', true: '5m', '1': '5m', '1h': '1h', off: 'off', false: 'off', '0': 'off' };

/** Tuning knobs: none changes what a run does, only how fast or how much it costs. */
export const LimitsSettingsSchema = z.object({
  /** AGENT_MAX_CACHED_WORKFLOWS: bound of the sticky workflow cache; undefined keeps the SDK's default. */
  maxCachedWorkflows: z.string().trim().optional()
    .refine((v) => !v || /^\d+$/.test(v), 'must be a whole number (0 or more); unset it to keep the SDK\'s default')
    .transform((v) => (v ? Number(v) : undefined)),
  /** AGENT_MODEL_IDLE_SECONDS: a model stream silent this long is abandoned and retried. */
  modelIdleSeconds: z.string().trim().optional()
    .refine((v) => !v || (Number.isFinite(Number(v)) && Number(v) > 0), 'must be a number of seconds above 0 (the default is 120)')
    .transform((v) => (v ? Number(v) : 120)),
  /** AGENT_PROMPT_CACHE: how long cached prompt prefixes live (see model/prompt-cache.ts). */
  promptCache: z.string().optional()
    .transform((v) => (v ?? '').trim().toLowerCase())
    .refine((v) => v in PROMPT_CACHE_ALIASES, 'must be 5m (or on), 1h or off')
    .transform((v) => PROMPT_CACHE_ALIASES[v]!),
});

export const WorkerSettingsSchema = z.object({
  model: z.object({
    apiKey: optionalText,
    baseUrl: optionalText.refine((v) => !v || URL.canParse(v), 'must be a URL such as https://api.anthropic.com'),
    tiers: z.object({ fast: optionalText, balanced: optionalText, powerful: optionalText }),
    ...ProviderSettingsShape,
  }),
  limits: LimitsSettingsSchema,
  workspace: z.object({ root: z.string().trim().optional().transform((v) => v || './workspace'), configFile: optionalText }),
  sandbox: z.object({
    mode: optionalText.refine((v) => !v || v === 'bwrap' || v === 'none', 'must be bwrap or none (or unset: bwrap when found)'),
    user: optionalText,
    toolEnv: z.string().optional().transform((v) => (v ?? '').split(',').map((n) => n.trim()).filter(Boolean)),
    /** AGENT_COMMAND_CGROUPS: `off` gives commands no cgroup (only the rlimits hold); see cgroups/detect-cgroups.ts. */
    commandCgroups: z.string().optional()
      .transform((v) => v?.trim().toLowerCase() || undefined)
      .pipe(z.enum(['auto', 'off'], { error: 'must be auto or off (or unset: auto)' }).default('auto')),
    /** AGENT_SCAN_MAX_ENTRIES: the most workspace entries walked before a command that may write (protected-sweep.ts). */
    scanMaxEntries: z.string().trim().optional()
      .refine((v) => !v || (/^\d+$/.test(v) && Number(v) > 0), `must be a whole number above 0 (the default is ${DEFAULT_SCAN_MAX_ENTRIES})`)
      .transform((v) => (v ? Number(v) : DEFAULT_SCAN_MAX_ENTRIES)),
  }),
  conversationStore: z.string().trim().optional().transform((v) => v || 'memory'),
  approversFile: optionalText,
});
/** The settings as the schema reads them from the environment, before the worker adds what it resolves itself. */
export type ParsedWorkerSettings = z.infer<typeof WorkerSettingsSchema>;

export interface WorkerSettings extends Omit<ParsedWorkerSettings, 'model' | 'sandbox'> {
  /** The sandbox settings, and PATH, where it looks for bwrap (undefined when the env has none; a system variable, not in the catalog). */
  sandbox: ParsedWorkerSettings['sandbox'] & { path?: string };
  /** The model client's key and endpoint, and the model id of each tier (AGENT_MODEL_*, defaults applied). */
  model: Omit<ParsedWorkerSettings['model'], 'tiers'> & { tiers: Record<ModelTier, string> };
  temporal: TemporalSettings;
  /** AGENT_DEPLOYMENT_NAME and AGENT_BUILD_ID: the worker deployment this worker joins; undefined: unversioned. */
  deployment?: WorkerDeployment;
  audit: { log?: string; headDir: string };
  /** The live relay (AGENT_LIVE_RELAY, AGENT_LIVE_RELAY_URL): where it listens, unless off. Unset (settings built by hand): loopback, a free port. */
  live?: LiveRelaySettings;
  observability: {
    metrics?: { port: number; host: string };
    /** AGENT_TEMPORAL_METRICS_ADDRESS: where the Temporal runtime's own exporter listens (with metrics on). */
    temporalMetricsAddress?: string;
    /** The OTLP traces URL, kept apart from `tracing` for the banner. */
    otlpTracesUrl?: string;
    tracing?: TracingSettings;
  };
  /**
   * The environment the settings were read from, kept only for what must see variables by any name:
   * the `${VAR}` expansion of the configuration file and MCP servers' env (a configuration may name
   * any variable, so no typed field can hold them). Never printed.
   */
  env: NodeJS.ProcessEnv;
}

/** Which variable each schema field comes from: the error messages and the banner name them. */
export const SETTING_VARIABLES: Record<string, string> = {
  'model.apiKey': 'ANTHROPIC_API_KEY',
  'model.baseUrl': 'ANTHROPIC_BASE_URL',
  'model.tiers.fast': 'AGENT_MODEL_FAST',
  'model.tiers.balanced': 'AGENT_MODEL_BALANCED',
  'model.tiers.powerful': 'AGENT_MODEL_POWERFUL',
  ...PROVIDER_SETTING_VARIABLES,
  'limits.maxCachedWorkflows': 'AGENT_MAX_CACHED_WORKFLOWS',
  'limits.modelIdleSeconds': 'AGENT_MODEL_IDLE_SECONDS',
  'limits.promptCache': 'AGENT_PROMPT_CACHE',
  'workspace.root': 'AGENT_WORKSPACE',
  'workspace.configFile': 'AGENT_CONFIG',
  'sandbox.mode': 'AGENT_SANDBOX',
  'sandbox.user': 'AGENT_SANDBOX_USER',
  'sandbox.toolEnv': 'AGENT_TOOL_ENV',
  'sandbox.commandCgroups': 'AGENT_COMMAND_CGROUPS',
  'sandbox.scanMaxEntries': 'AGENT_SCAN_MAX_ENTRIES',
  conversationStore: 'AGENT_CONVERSATION_STORE',
  approversFile: 'AGENT_APPROVERS_FILE',
};

/** One or more settings are wrong; the message names each variable, what was wrong and what to do. */
export class WorkerSettingsError extends DurableAgentError {
  override readonly name = 'WorkerSettingsError';
  readonly code = 'WORKER_SETTINGS_INVALID';
  readonly retryable = false;
  constructor(readonly problems: string[]) {
    super(`The worker's settings are wrong, so it did not start:\n${problems.map((p) => `- ${p}`).join('\n')}\nFix the environment variables above (see the configuration table in README.md) and start the worker again.`);
  }
}

/** The raw variables in the schema's shape. */
function rawSettings(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [field, variable] of Object.entries(SETTING_VARIABLES)) {
    const keys = field.split('.');
    let at = raw;
    for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
    at[keys.at(-1)!] = env[variable];
  }
  return raw;
}

/** Parses every worker setting from `env`; throws WorkerSettingsError listing all that are wrong. */
export function parseWorkerSettings(env: NodeJS.ProcessEnv): WorkerSettings {
  const problems: string[] = [];
  const parsed = WorkerSettingsSchema.safeParse(rawSettings(env));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const variable = SETTING_VARIABLES[issue.path.join('.')] ?? issue.path.join('.');
      problems.push(`${variable}="${env[variable] ?? ''}" ${issue.message}.`);
    }
  }
  const temporal = collect(problems, () => temporalSettings(env));
  const metrics = collect(problems, () => metricsServerOptionsFromEnv(env));
  const audit = collect(problems, () => ({ log: auditLogPathFromEnv(env), headDir: auditHeadDirFromEnv(env) }));
  const { deployment, problems: deploymentProblems } = deploymentFrom(env.AGENT_DEPLOYMENT_NAME, env.AGENT_BUILD_ID);
  problems.push(...deploymentProblems);
  const live = collect(problems, () => liveRelaySettingsFromEnv(env));
  if (!parsed.success || !temporal || !audit || !live || problems.length > 0) throw new WorkerSettingsError(problems);
  const tracing = tracingSettings(env);
  const observability = {
    metrics: metrics && { port: metrics.port, host: metrics.host ?? '127.0.0.1' },
    temporalMetricsAddress: env.AGENT_TEMPORAL_METRICS_ADDRESS?.trim() || undefined,
    otlpTracesUrl: tracing?.url,
    tracing,
  };
  const tiers = Object.fromEntries(ModelTierSchema.options.map((tier) => [tier, modelIdForTier(tier, env)])) as Record<ModelTier, string>;
  const sandbox = { ...parsed.data.sandbox, path: env.PATH || undefined };
  return { ...parsed.data, model: { ...parsed.data.model, tiers }, sandbox, temporal, ...(deployment ? { deployment } : {}), audit, live, observability, env };
}
