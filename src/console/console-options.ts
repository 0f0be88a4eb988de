// How the console is configured: flags of `agentctl console` and options of `startConsole`, with the
// environment as the fallback. Validated once, so a bad port or users file fails at start.
import { z } from 'zod';
import { describeZodError } from '../describe-zod-error';
import { defaultApprover } from '../client/approval-helpers';
import { temporalSettings } from '../config/worker-config';
import { MODEL_PRICES_FILE_ENV } from '../model/model-prices';
import { modelIdForTier, ModelTierSchema } from '../model/model-tiers';
import { ConsoleConfigError } from './errors';
import { USERS_FILE_ENV } from './auth/users-file';

export const DEFAULT_CONSOLE_PORT = 4280;
/** The Web UI's base URL for links to a run, e.g. http://localhost:8233. */
export const UI_URL_ENV = 'TEMPORAL_UI_URL';
export const PORT_ENV = 'AGENT_CONSOLE_PORT';
export const HOST_ENV = 'AGENT_CONSOLE_HOST';

export const ConsoleOptionsSchema = z.object({
  /** Loopback unless told otherwise: the console decides on tool calls. */
  host: z.string().min(1).default('127.0.0.1'),
  /** 0 picks a free port (tests). */
  port: z.number().int().min(0).max(65_535).default(DEFAULT_CONSOLE_PORT),
  usersFile: z.string().min(1).optional(),
  /** Who logs in with the start token: the person who started the console. */
  localUser: z.string().min(1).max(200),
  /** The start token; generated when not given. */
  token: z.string().min(16).optional(),
  /** Where write_file diffs read the current file; the worker's AGENT_WORKSPACE when they share a disk. */
  workspace: z.string().min(1).optional(),
  uiBaseUrl: z.string().url().optional(),
  taskQueue: z.string().min(1),
  /** An extra visibility filter for the runs shown (e.g. `AgentName = 'general'`). */
  filter: z.string().min(1).optional(),
  /** How many of the newest runs are watched. */
  limit: z.number().int().positive().max(1_000).default(50),
  pollMs: z.number().int().min(50).default(500),
  /** Prices for the run view's cost estimate, over the built-in ones (AGENT_MODEL_PRICES_FILE). */
  modelPricesFile: z.string().min(1).optional(),
  /** The model id of each tier, as the worker resolves it (AGENT_MODEL_FAST / _BALANCED / _POWERFUL). */
  models: z.record(z.string(), z.string().min(1)).optional(),
});
export type ConsoleOptions = z.output<typeof ConsoleOptionsSchema>;
export type ConsoleOptionsInput = z.input<typeof ConsoleOptionsSchema>;

/** The options from the environment, overridden by what the caller gives. */
export function consoleOptions(given: Partial<ConsoleOptionsInput>, env: NodeJS.ProcessEnv = process.env): ConsoleOptions {
  const port = env[PORT_ENV] ? Number(env[PORT_ENV]) : undefined;
  const parsed = ConsoleOptionsSchema.safeParse({
    host: env[HOST_ENV] || undefined,
    port,
    localUser: defaultApprover(env),
    usersFile: env[USERS_FILE_ENV] || undefined,
    workspace: env.AGENT_WORKSPACE || undefined,
    uiBaseUrl: env[UI_URL_ENV] || undefined,
    taskQueue: temporalSettings(env).taskQueue,
    modelPricesFile: env[MODEL_PRICES_FILE_ENV] || undefined,
    models: Object.fromEntries(ModelTierSchema.options.map((tier) => [tier, modelIdForTier(tier, env)])),
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  });
  if (!parsed.success) throw new ConsoleConfigError(`Invalid console settings:\n${describeZodError(parsed.error)}`);
  return parsed.data;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** The Host headers a loopback console answers to; a console bound elsewhere accepts any. */
export function allowedHostsFor(host: string, port: number): Set<string> | undefined {
  if (!LOOPBACK.has(host)) return undefined;
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}
