// Starts the console: the runs watcher, the HTTP app and its server, on the caller's Temporal client
// (or a new one). Used by `agentctl console` and `npm start`; `close()` stops everything it started.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Client } from '@temporalio/client';
import type { Hono } from 'hono';
import { loadModelPrices, ModelPricesError } from '../runtime/model/model-prices';
import { createAuthenticator, newLoginToken } from './auth/authenticator';
import { SessionStore } from './auth/sessions';
import { loadUsersFile } from './auth/users-file';
import { threadFollowUp, type FollowUpChannel } from './actions/follow-up';
import { createConsoleApp } from './console-app';
import { LoginThrottle } from './auth/login-throttle';
import { allowedHostsFor, isLoopbackHost, type ConsoleOptions } from './console-options';
import { ConsoleConfigError } from './errors';
import type { ConsoleEnv } from './http/console-context';
import { sessionCookieFor } from './http/security';
import { consoleRunsQuery } from './runs/run-list';
import { RunsWatcher } from './runs/runs-watcher';

export interface BuiltConsole {
  app: Hono<ConsoleEnv>;
  /** The start token, for the person who started the console. */
  token: string;
  localUser: string;
  /** How many users the users file has (0 without one). */
  users: number;
  /** Ends open event streams and stops polling Temporal. */
  stop(): Promise<void>;
}

/** The app and what it needs, without a socket: `startConsole` serves it, tests call `app.request()`. */
export function buildConsole(
  options: ConsoleOptions,
  given: { client: Client; followUp?: FollowUpChannel; allowedHosts?: ReadonlySet<string>; port?: number },
): BuiltConsole {
  const users = options.usersFile ? loadUsersFile(options.usersFile) : [];
  const token = options.token ?? newLoginToken();
  const pricing = { prices: loadPrices(options.modelPricesFile), models: options.models ?? {} };
  const watcher = new RunsWatcher(given.client, { query: consoleRunsQuery(options.filter), limit: options.limit, pollMs: options.pollMs, workspace: options.workspace });
  const shutdown = new AbortController();
  const reads = new Set<Promise<unknown>>();
  const port = given.port ?? options.port;
  const app = createConsoleApp(
    {
      client: given.client,
      sessions: new SessionStore(),
      cookie: sessionCookieFor(isLoopbackHost(options.host), port),
      throttle: new LoginThrottle(),
      authenticator: createAuthenticator({ localToken: token, localUser: options.localUser, users }),
      watcher,
      taskQueue: options.taskQueue,
      uiBaseUrl: options.uiBaseUrl,
      followUp: given.followUp ?? threadFollowUp,
      allowedHosts: given.allowedHosts ?? allowedHostsFor(options.host, port, options.hostNames),
      pricing,
      runPollMs: options.pollMs,
      shutdown: shutdown.signal,
      reads,
    },
    { localUser: options.localUser },
  );
  return {
    app,
    token,
    localUser: options.localUser,
    users: users.length,
    async stop() {
      shutdown.abort();
      await watcher.close();
      await Promise.allSettled([...reads]);
    },
  };
}

function loadPrices(file: string | undefined) {
  try {
    return loadModelPrices(file);
  } catch (error) {
    if (error instanceof ModelPricesError) throw new ConsoleConfigError(error.message);
    throw error;
  }
}

export interface RunningConsole extends BuiltConsole {
  url: string;
  close(): Promise<void>;
}

function listen(server: ServerType): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve(server.address() as AddressInfo));
  });
}

/** `given.client` is the caller's (agentctl's, connected with its settings); the console reads no environment of its own. */
export async function startConsole(options: ConsoleOptions, given: { client: Client; followUp?: FollowUpChannel }): Promise<RunningConsole> {
  const { client } = given;
  // The Host check needs the port actually bound (0 means "any free one"), so the app is built after listening.
  let built: BuiltConsole | undefined;
  const server = serve({ fetch: (request) => (built ? built.app.fetch(request) : new Response('Starting', { status: 503 })), port: options.port, hostname: options.host });
  let address: AddressInfo;
  try {
    address = await listen(server);
    built = buildConsole(options, { client, followUp: given.followUp, port: address.port });
  } catch (error) {
    server.close();
    if (error instanceof ConsoleConfigError) throw error;
    throw new ConsoleConfigError(`The console cannot listen on ${options.host}:${options.port}: ${(error as Error).message}. Pick another --port or --host.`);
  }
  const ready = built;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
  return {
    ...ready,
    url: `http://${hostInUrl}:${address.port}/`,
    async close() {
      await ready.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      },
  };
}
