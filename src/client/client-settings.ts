import { auditDirFromEnv, auditHeadDirFromEnv, AUDIT_LOG_ENV } from '../runtime/audit/audit-path';
import { approverKeysDir } from './approver-keys';
import { defaultApprover } from './default-approver';
import { encryptionKeysFromEnv, type EncryptionKeys } from '../runtime/codec/encryption-keys';
import { consoleSettingsFromEnv, type ConsoleEnvSettings } from './console-settings';
import { tracingSettings, type TracingSettings } from '../runtime/observability/tracing';
import { temporalSettings, type TemporalSettings } from '../runtime/config/worker-config';
import { collect } from '../runtime/config/collect-problems';
import { DurableAgentError } from '../contract/durable-agent-error';
import { watchSettingsFromEnv, type WatchSettings } from './watch-settings';

/**
 * The settings of the clients (agentctl and the console it serves), parsed from the environment once,
 * when the CLI starts (cli-context.ts), and passed down: commands read these fields, not
 * `process.env`. A bad value stops the CLI before it connects (ClientSettingsError), naming each
 * variable. The variables are listed, with defaults and meanings, in settings-catalog.ts.
 */
export interface ClientSettings {
  /** TEMPORAL_ADDRESS/NAMESPACE/TASK_QUEUE/TLS*, profiles, and the payload codec (AGENT_ENCRYPTION_KEY). */
  temporal: TemporalSettings;
  /** Who decides when `--approver` is not given: USER, else USERNAME, else "cli". */
  approver: string;
  /** AGENT_KEYS_DIR (or the XDG default): where `agentctl keys` keeps approver private keys. */
  keysDir: string;
  /** The encryption keys for `agentctl codec-server`, and AGENT_CODEC_TOKEN, its bearer token. */
  codec: { keys?: EncryptionKeys; token?: string };
  /** What `agentctl audit verify` checks by default: AGENT_AUDIT_LOG (undefined when off or unset), AGENT_AUDIT_DIR, AGENT_AUDIT_HEAD_DIR. */
  audit: { log?: string; dir: string; headDir: string };
  /** OpenTelemetry export of the spans a client starts (OTEL_EXPORTER_OTLP_*). */
  tracing?: TracingSettings;
  /** The console's own variables (AGENT_CONSOLE_*, TEMPORAL_UI_URL, ...), under its flags. */
  console: ConsoleEnvSettings;
  /** AGENT_DEPLOYMENT_NAME: the worker deployment `agentctl deploy status` shows without --deployment. */
  deploymentName?: string;
  /** How `run` and `watch` follow a run: AGENT_WATCH_RELAY, AGENT_WATCH_POLL_MS. Unset (settings built by hand): relay on, polling every 250 ms. */
  watch?: WatchSettings;
}

/** One or more client settings are wrong; the message names each variable, what was wrong and what to do. */
export class ClientSettingsError extends DurableAgentError {
  override readonly name = 'ClientSettingsError';
  readonly code = 'CLIENT_SETTINGS_INVALID';
  readonly retryable = false;
  constructor(readonly problems: string[]) {
    super(`agentctl's settings are wrong, so it did nothing:\n${problems.map((p) => `- ${p}`).join('\n')}\nFix the environment variables above (see the configuration table in README.md) and run the command again.`);
  }
}

/** Parses every client setting from `env`; throws ClientSettingsError listing all that are wrong. */
export function parseClientSettings(env: NodeJS.ProcessEnv): ClientSettings {
  const problems: string[] = [];
  const temporal = collect(problems, () => temporalSettings(env));
  const keys = collect(problems, () => encryptionKeysFromEnv(env));
  const consoleEnv = collect(problems, () => consoleSettingsFromEnv(env));
  const watch = collect(problems, () => watchSettingsFromEnv(env));
  // The codec's keys are read by temporalSettings too (its data converter): one bad key, one line.
  if (!temporal || !consoleEnv || !watch || problems.length > 0) throw new ClientSettingsError([...new Set(problems)]);
  const log = env[AUDIT_LOG_ENV]?.trim();
  return {
    temporal,
    approver: defaultApprover(env),
    keysDir: approverKeysDir(env),
    codec: { keys, token: env.AGENT_CODEC_TOKEN || undefined },
    audit: { log: log && log !== 'off' ? log : undefined, dir: auditDirFromEnv(env), headDir: auditHeadDirFromEnv(env) },
    tracing: tracingSettings(env),
    console: consoleEnv,
    ...(env.AGENT_DEPLOYMENT_NAME?.trim() ? { deploymentName: env.AGENT_DEPLOYMENT_NAME.trim() } : {}),
    watch,
  };
}
