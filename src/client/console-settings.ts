import { modelIdForTier, ModelTierSchema } from '../contract/model-tiers';
import { temporalSettings } from '../runtime/config/worker-config';
import { MODEL_PRICES_FILE_ENV } from '../runtime/model/model-prices';
import { defaultApprover } from './default-approver';
import { ConsoleSettingsError } from './errors';

/**
 * The console's variables, read with the other client settings when agentctl starts. They live on the
 * client floor, under the console, so the settings the CLI parses once do not have to reach up into
 * the console's HTTP code; the console's options (console-options.ts) lay its flags over them.
 */
export const DEFAULT_CONSOLE_PORT = 4280;
/** The Web UI's base URL for links to a run, e.g. http://localhost:8233. */
export const UI_URL_ENV = 'TEMPORAL_UI_URL';
export const PORT_ENV = 'AGENT_CONSOLE_PORT';
export const HOST_ENV = 'AGENT_CONSOLE_HOST';
/** Comma-separated names the console answers to when it listens off loopback (e.g. behind a TLS proxy). */
export const HOST_NAMES_ENV = 'AGENT_CONSOLE_HOST_NAMES';
/** The console's users file (name, scrypt hash). */
export const USERS_FILE_ENV = 'AGENT_CONSOLE_USERS';

/** The console's options that come from the environment; each is optional, the console's flags win. */
export interface ConsoleEnvSettings {
  host?: string;
  hostNames?: string[];
  port?: number;
  localUser?: string;
  usersFile?: string;
  workspace?: string;
  uiBaseUrl?: string;
  taskQueue?: string;
  modelPricesFile?: string;
  models?: Record<string, string>;
}

/** Reads the console's variables; a port that is not one is refused here, naming the variable. */
export function consoleSettingsFromEnv(env: NodeJS.ProcessEnv): ConsoleEnvSettings {
  const rawPort = env[PORT_ENV]?.trim();
  const port = rawPort ? Number(rawPort) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    throw new ConsoleSettingsError(`${PORT_ENV}="${rawPort}" is not a TCP port: use a number from 0 to 65535 (0 picks a free one), or unset it for ${DEFAULT_CONSOLE_PORT}.`);
  }
  return {
    host: env[HOST_ENV] || undefined,
    hostNames: env[HOST_NAMES_ENV] ? env[HOST_NAMES_ENV].split(',').map((n) => n.trim()).filter(Boolean) : undefined,
    port,
    localUser: defaultApprover(env),
    usersFile: env[USERS_FILE_ENV] || undefined,
    workspace: env.AGENT_WORKSPACE || undefined,
    uiBaseUrl: env[UI_URL_ENV] || undefined,
    taskQueue: temporalSettings(env).taskQueue,
    modelPricesFile: env[MODEL_PRICES_FILE_ENV] || undefined,
    models: Object.fromEntries(ModelTierSchema.options.map((tier) => [tier, modelIdForTier(tier, env)])),
  };
}
