// How the console is configured: flags of `agentctl console` and options of `startConsole`, with the
// environment as the fallback. Validated once, so a bad port or users file fails at start.
import { hostname, networkInterfaces } from 'node:os';
import { z } from 'zod';
import { describeZodError } from '../contract/describe-zod-error';
import { ConsoleConfigError } from './errors';
import { consoleSettingsFromEnv, DEFAULT_CONSOLE_PORT, type ConsoleEnvSettings } from '../client/console-settings';

export { DEFAULT_CONSOLE_PORT, HOST_ENV, HOST_NAMES_ENV, PORT_ENV, UI_URL_ENV, consoleSettingsFromEnv, type ConsoleEnvSettings } from '../client/console-settings';

export const ConsoleOptionsSchema = z.object({
  /** Loopback unless told otherwise: the console decides on tool calls. */
  host: z.string().min(1).default('127.0.0.1'),
  /** 0 picks a free port (tests). */
  port: z.number().int().min(0).max(65_535).default(DEFAULT_CONSOLE_PORT),
  /**
   * The Host names the console answers to besides the loopback ones (DNS-rebinding guard), e.g.
   * `console.example.com` behind a proxy. Off loopback the default is the host it listens on, or for
   * 0.0.0.0 / :: this machine's name and addresses.
   */
  hostNames: z.array(z.string().min(1)).optional(),
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

/** The options from the environment's settings (`consoleSettingsFromEnv`), overridden by what the caller gives. */
export function consoleOptionsFrom(given: Partial<ConsoleOptionsInput>, fromEnv: ConsoleEnvSettings): ConsoleOptions {
  const parsed = ConsoleOptionsSchema.safeParse({
    ...fromEnv,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  });
  if (!parsed.success) throw new ConsoleConfigError(`Invalid console settings:\n${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** `consoleSettingsFromEnv` then `consoleOptionsFrom`, for callers holding an environment (npm start, tests). */
export function consoleOptions(given: Partial<ConsoleOptionsInput>, env: NodeJS.ProcessEnv): ConsoleOptions {
  return consoleOptionsFrom(given, consoleSettingsFromEnv(env));
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

export const isLoopbackHost = (host: string) => LOOPBACK.has(host);

/** A name as it appears in a Host header: IPv6 addresses in brackets. */
const asHostName = (name: string) => (name.includes(':') && !name.startsWith('[') ? `[${name}]` : name).toLowerCase();

/**
 * The Host headers the console answers to: always the loopback names on its port. Off loopback also
 * the names given (each with and without the port, since a proxy on 443 sends the bare name), or by
 * default the host it listens on, or for a wildcard address this machine's name and addresses. A
 * rebound DNS name is none of these, on loopback or off it.
 */
export function allowedHostsFor(host: string, port: number, names?: readonly string[]): Set<string> {
  const allowed = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  if (isLoopbackHost(host)) return allowed;
  const defaults = WILDCARD.has(host)
    ? [hostname(), ...Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address))]
    : [host];
  for (const name of (names ?? defaults).map(asHostName)) {
    const hasPort = /:\d+$/.test(name) && (!name.startsWith('[') || name.includes(']:'));
    if (hasPort) allowed.add(name);
    else allowed.add(name).add(`${name}:${port}`);
  }
  return allowed;
}
