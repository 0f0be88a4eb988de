import { DurableAgentError } from '../../contract/durable-agent-error';
import { TemporalUnreachableError } from '../../contract/errors';
import type { TemporalConnection } from './temporal-connection';
import type { TemporalSettings } from './worker-config';

/**
 * Where a client or a worker finds Temporal and its runs: the same fields on both sides
 * (`AgentClient.connect(options)` and `createAgentWorker(options)`), so a program that starts both
 * writes them once. Each field overrides what the environment (`env`, default `process.env`: the
 * TEMPORAL_* variables and profiles, see the README's table) says.
 */
export interface AgentConnectOptions {
  /** host:port of the Temporal frontend (TEMPORAL_ADDRESS; default localhost:7233). */
  address?: string;
  /** The Temporal namespace (TEMPORAL_NAMESPACE; default `default`). */
  namespace?: string;
  /** The task queue the agent workers poll (TEMPORAL_TASK_QUEUE; default `agents`). */
  taskQueue?: string;
  /** TLS: `true` for the system's roots, or the SDK's TLS config (TEMPORAL_TLS*). */
  tls?: TemporalConnection['options']['tls'];
  /** An API key for Temporal Cloud and other servers that take one (TEMPORAL_API_KEY). */
  apiKey?: string;
  /** Where the TEMPORAL_* and AGENT_* settings are read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** The connection fields, as an object the compiler checks against the interface (a field added there must be added here). */
export const CONNECT_OPTION_FIELDS = { address: true, namespace: true, taskQueue: true, tls: true, apiKey: true, env: true } as const satisfies Record<keyof AgentConnectOptions, true>;

export const CONNECT_OPTION_KEYS: readonly string[] = Object.keys(CONNECT_OPTION_FIELDS);

/** An options object has a key nothing reads (a typo, or an environment variable outside `env`). */
export class UnknownOptionError extends DurableAgentError {
  override readonly name = 'UnknownOptionError';
  readonly code = 'UNKNOWN_OPTION';
  readonly retryable = false;
}

/**
 * Refuses keys nothing reads, naming the closest known one: TypeScript refuses them at compile time,
 * this does the same for JavaScript callers and for objects built at run time.
 */
export function refuseUnknownOptions(where: string, options: object, known: readonly string[]): void {
  const unknown = Object.keys(options).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const hints = unknown.map((key) => {
    const near = known.find((k) => editDistance(k.toLowerCase(), key.toLowerCase()) <= 2);
    return near ? `"${key}" (did you mean "${near}"?)` : `"${key}"`;
  });
  throw new UnknownOptionError(`${where} does not take ${hints.join(', ')}. It takes: ${known.join(', ')}.`);
}

/** How many one-letter changes turn `a` into `b` (Levenshtein), for "did you mean". */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The settings read from the environment, with the fields the options give put over them. */
export function withConnectOptions(settings: TemporalSettings, options: AgentConnectOptions): TemporalSettings {
  const address = options.address ?? settings.address;
  return {
    ...settings,
    address,
    namespace: options.namespace ?? settings.namespace,
    taskQueue: options.taskQueue ?? settings.taskQueue,
    connection: {
      ...settings.connection,
      address,
      ...(options.tls !== undefined ? { tls: options.tls } : {}),
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    },
    source: options.address ? 'options' : settings.source,
  };
}

/**
 * The error for a Temporal server that did not answer, as a client and a worker both report it: the
 * address tried, where it came from, what the connection said, and what to do.
 */
export function unreachable(settings: Pick<TemporalSettings, 'address' | 'source'>, error: unknown): TemporalUnreachableError {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return new TemporalUnreachableError(
    `Cannot reach Temporal at ${settings.address} (${reason}; settings from ${settings.source}). ` +
      'Start one with `npm start` (embedded dev server) or `temporal server start-dev`, or point at yours with TEMPORAL_ADDRESS (or a TEMPORAL_PROFILE, or the `address` option).',
    { cause: error },
  );
}
