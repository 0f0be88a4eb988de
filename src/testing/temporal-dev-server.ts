// Launches `temporal server start-dev` as a child process and waits until it can serve workflows.
//
// Used by the test global setup, `npm start` (through scripts/temporal-dev-server.ts, which installs the
// CLI first) and the testing kit users get as `durable-agent/testing`. We drive the CLI ourselves rather than through
// `@temporalio/testing` (not a dependency): its `createLocal` downloads the CLI from Temporal's site
// unless given a path, and it cannot restart a server on the same ports and database file, which a
// test of persisted state needs. The test environment falls back to it when no CLI can be had.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import readline from 'node:readline';
import { Connection } from '@temporalio/client';
import { ensureTemporalCli } from './find-temporal-cli';
import { DurableAgentError } from '../contract/durable-agent-error';
import { AGENT_SEARCH_ATTRIBUTES } from '../contract/search-attributes';

export type SearchAttributeType = 'Keyword' | 'Text' | 'Int' | 'Double' | 'Bool' | 'Datetime' | 'KeywordList';

export interface DevServerOptions {
  /** The `temporal` CLI to run (default: ensureTemporalCli(), which finds one or installs it in the per-user cache). */
  cli?: string;
  port?: number;
  /** Web UI port; a free one is picked unless `headless`. */
  uiPort?: number;
  headless?: boolean;
  /** SQLite file that keeps workflows across restarts; without it state lives only in memory. */
  dbFilename?: string;
  /** An extra namespace to create; readiness is checked against it. */
  namespace?: string;
  /** Merged over the defaults (AgentName, AgentStatus and ForkedFrom as Keyword, AgentCostUsd as Double). */
  searchAttributes?: Record<string, SearchAttributeType>;
  /**
   * Server dynamic config, e.g. `{ 'system.enableActivityEagerExecution': true }` (values are sent
   * as JSON), merged over `LOW_LATENCY_DYNAMIC_CONFIG`; a key set to `null` keeps the server's default.
   */
  dynamicConfig?: Record<string, unknown>;
  /** The codec server the Web UI decodes payloads with (`agentctl codec-server`), when payloads are encrypted. */
  uiCodecEndpoint?: string;
  log?: (line: string) => void;
}

export interface DevServer {
  address: string;
  port: number;
  uiPort?: number;
  /** The current child process; replaced by `restart()`. */
  readonly process: ChildProcess;
  stop(): Promise<void>;
  /**
   * Stops the server and starts it again on the same ports and database file. `kill: true` sends
   * SIGKILL instead of SIGTERM: a crash, with no chance to flush or say goodbye to clients.
   */
  restart(opts?: { kill?: boolean }): Promise<void>;
}

/** The server exited or never became reachable; the message carries its last output lines. */
export class DevServerStartError extends DurableAgentError {
  override name = 'DevServerStartError';
  readonly code = 'DEV_SERVER_START_FAILED';
  /** A server that died on a taken port may start on another try. */
  get retryable(): boolean {
    return this.portInUse;
  }
  constructor(
    message: string,
    /** True when the server died because a port was taken; starting again may succeed. */
    readonly portInUse = false,
  ) {
    super(message);
  }
}

export const DEFAULT_SEARCH_ATTRIBUTES: Record<string, SearchAttributeType> = { ...AGENT_SEARCH_ATTRIBUTES };

/**
 * Each history shard's queue readers load new tasks at most 20 times a second by default. The dev
 * server has one shard, so once a run's quick steps have used up the burst, every workflow task
 * (the one an approval or a finished activity schedules) waits about 40 ms for the transfer queue
 * before it reaches the worker: most of an iteration's cost (bench/results/overhead.md). The
 * readers are woken by new tasks, not polling, so a higher cap costs nothing when idle. The same
 * values are in deploy/temporal/dynamicconfig.yaml for the compose stack and `npm run cluster`.
 */
export const LOW_LATENCY_DYNAMIC_CONFIG: Readonly<Record<string, unknown>> = {
  'history.transferProcessorMaxPollRPS': 1000,
  'history.timerProcessorMaxPollRPS': 1000,
  'history.visibilityProcessorMaxPollRPS': 1000,
};
const READY_TIMEOUT_MS = 60_000;
const KILL_GRACE_MS = 5_000;
const PROBE_TIMEOUT_MS = 2_000;

/** Servers not yet exited, killed when this process exits. */
const live = new Set<ChildProcess>();
let cleanupInstalled = false;

/** Asks the kernel for a free TCP port on `host`. Another process may take it before we do. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startDevServer(opts: DevServerOptions = {}): Promise<DevServer> {
  const cli = opts.cli ?? (await ensureTemporalCli());
  const namespace = opts.namespace ?? 'default';
  const searchAttributes = { ...DEFAULT_SEARCH_ATTRIBUTES, ...opts.searchAttributes };
  let ports = await choosePorts(opts);

  // The CLI gives its internal services ports from bind(0), which can land on the frontend port we
  // picked (the kernel just released it), and then the server dies with "address already in use".
  // Starting again rolls the dice again; ports we chose ourselves may move, ports the caller fixed
  // (or that a restart must keep) may not.
  const launch = async (mayMovePorts: boolean): Promise<ChildProcess> => {
    for (let attempt = 1; ; attempt++) {
      const child = spawnServer(cli, serverArgs(ports, opts, namespace, searchAttributes), opts.log);
      try {
        await waitUntilReady(child, `127.0.0.1:${ports.port}`, namespace, Object.keys(searchAttributes));
        return child;
      } catch (err) {
        await stopProcess(child);
        if (!(err instanceof DevServerStartError && err.portInUse) || attempt === 3) throw err;
        if (mayMovePorts) ports = await choosePorts(opts);
      }
    }
  };

  let child = await launch(true);
  return {
    address: `127.0.0.1:${ports.port}`,
    port: ports.port,
    uiPort: ports.uiPort,
    get process() {
      return child;
    },
    stop: () => stopProcess(child),
    async restart({ kill = false } = {}) {
      await stopProcess(child, kill ? 'SIGKILL' : 'SIGTERM');
      child = await launch(false);
    },
  };
}

interface Ports {
  port: number;
  uiPort?: number;
}

async function choosePorts(opts: DevServerOptions): Promise<Ports> {
  const port = opts.port ?? (await freePort());
  if (opts.headless) return { port };
  let uiPort = opts.uiPort;
  // The CLI would default the UI to port + 1000, which nothing reserved for us.
  while (uiPort === undefined || uiPort === port) uiPort = await freePort();
  return { port, uiPort };
}

function serverArgs(ports: Ports, opts: DevServerOptions, namespace: string, attrs: Record<string, string>) {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(ports.port), '--log-level', 'warn'];
  // The UI's news feed is fetched from the internet, which these machines may not have.
  args.push(...(ports.uiPort === undefined ? ['--headless'] : ['--ui-port', String(ports.uiPort), '--ui-disable-news-fetch']));
  if (opts.dbFilename) args.push('--db-filename', opts.dbFilename);
  if (opts.uiCodecEndpoint && ports.uiPort !== undefined) args.push('--ui-codec-endpoint', opts.uiCodecEndpoint);
  if (namespace !== 'default') args.push('--namespace', namespace);
  for (const [name, type] of Object.entries(attrs)) args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries({ ...LOW_LATENCY_DYNAMIC_CONFIG, ...opts.dynamicConfig })) {
    if (value !== null) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }
  return args;
}

interface Spawned extends ChildProcess {
  /** Last lines of output, quoted in errors so a failed start explains itself. */
  outputTail: string[];
  /** Error lines kept apart, because a Go panic's stack trace pushes them out of the tail. */
  errorLines: string[];
  portInUse: boolean;
  spawnError?: Error;
}

function spawnServer(cli: string, args: string[], log?: (line: string) => void): Spawned {
  // Not detached: a Ctrl-C in the terminal reaches the whole process group, server included.
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] }) as Spawned;
  child.outputTail = [];
  child.errorLines = [];
  child.portInUse = false;
  const onLine = (line: string) => {
    if (!line.trim()) return;
    child.outputTail.push(line);
    if (child.outputTail.length > 20) child.outputTail.shift();
    if (/level=ERROR|^panic:|^Error:/.test(line) && child.errorLines.length < 10) child.errorLines.push(line);
    if (line.includes('address already in use')) child.portInUse = true;
    log?.(line);
  };
  // Always drain both pipes, or a chatty server blocks once the pipe buffer fills.
  readline.createInterface({ input: child.stdout! }).on('line', onLine);
  readline.createInterface({ input: child.stderr! }).on('line', onLine);
  child.on('error', (err) => (child.spawnError = err));
  trackForCleanup(child);
  return child;
}

async function waitUntilReady(child: Spawned, address: string, namespace: string, attributes: string[]) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.spawnError) throw new DevServerStartError(`cannot run the Temporal CLI: ${child.spawnError.message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new DevServerStartError(
        `temporal server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n` +
          `${child.errorLines.join('\n')}\nlast output:\n${child.outputTail.join('\n')}`,
        child.portInUse,
      );
    }
    let connection: Connection | undefined;
    try {
      // connect() itself calls getSystemInfo, so a resolved connection means the frontend answers.
      connection = await Connection.connect({ address, connectTimeout: PROBE_TIMEOUT_MS });
      // A workflow that upserts an unregistered search attribute fails its task, so "ready" means
      // the namespace exists and has them all. Calls have no deadline by default, and a listener
      // that is not Temporal would hang us.
      const { customAttributes } = await connection.withDeadline(Date.now() + PROBE_TIMEOUT_MS, () =>
        connection!.operatorService.listSearchAttributes({ namespace }),
      );
      const missing = attributes.filter((name) => !(customAttributes && name in customAttributes));
      if (missing.length === 0) return;
      lastError = new Error(`search attributes not registered yet: ${missing.join(', ')}`);
    } catch (err) {
      lastError = err;
    } finally {
      await connection?.close().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new DevServerStartError(
    `temporal server at ${address} was not ready after ${READY_TIMEOUT_MS / 1000}s (${String(lastError)}):\n` +
      child.outputTail.join('\n'),
  );
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  // A child that never spawned (no pid) emits no 'exit' to wait for.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const escalate = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(escalate);
      resolve();
    });
    child.kill(signal);
  });
}

// Servers still running when this process ends are killed, so none outlive a crashed test run.
function trackForCleanup(child: ChildProcess) {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  const killAll = () => {
    for (const c of live) c.kill('SIGKILL');
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // Any listener cancels Node's default "exit on signal", so we restore it (the exit hook then
    // kills the servers). If someone else listens too, such as a worker's graceful shutdown that
    // still needs the server, they decide when to exit and the exit hook runs then.
    process.on(signal, () => {
      if (process.listenerCount(signal) === 1) process.exit(128 + os.constants.signals[signal]);
    });
  }
}
