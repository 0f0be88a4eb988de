import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { statusQuery } from '../../contract/agent-run-api';
import { LIVE_FEED_ENDS_ON_CLOSE, liveFeedPath, type LiveFeedFrom, type LiveRelayAddress } from '../../contract/live-feed';
import { watchStatusQuery } from '../../contract/live-status';
import type { RunStatus } from '../../contract/run-status';
import type { LifecycleHandler } from '../lifecycle/lifecycle-handler';
import { feedFrame } from './feed-frames';
import { heartbeatProgress } from './heartbeat-progress';
import { LiveCalls } from './live-calls';
import { advertisedUrl, DEFAULT_LIVE_RELAY, type LiveRelaySettings } from './live-settings';
import { RelayTokens } from './relay-tokens';
import { WatchedRun, type Subscriber } from './watched-run';

/** The relay could not listen (port taken, bad host); the message says which setting to change. */
export class LiveRelayError extends Error {
  override readonly name = 'LiveRelayError';
}

export interface LiveRelayOptions {
  settings: LiveRelaySettings & { listen: { host: string; port: number } };
  namespace: string;
  /** The worker's client (with its data converter), for the status query and the heartbeat. */
  temporal: () => Client;
  /** At most this many open feeds; more are refused with 503 (default 2,000). */
  maxSubscribers?: number;
  tokens?: RelayTokens;
}

/** A watcher that reads slower than this much is cut off; it reconnects and gets what it lacks from its offset. */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
/** An SSE comment this often keeps proxies and idle timers from closing a quiet feed. */
const KEEPALIVE_MS = 15_000;
const FEED_PATH = /^\/v1\/runs\/([^/]+)\/feed$/;
/** After a long poll for a run's end failed (the connection, not the run), it is asked again this much later. */
const CLOSE_POLL_RETRY_MS = 1_000;

function refuse(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify({ error: message }));
}

/** `iteration`, `attempt`, `text`, `thinking` as whole numbers, all or none; undefined when absent. */
function fromOf(params: URLSearchParams): LiveFeedFrom | undefined | 'bad' {
  const names = ['iteration', 'attempt', 'text', 'thinking'] as const;
  if (names.every((n) => !params.has(n))) return undefined;
  const values = names.map((n) => Number(params.get(n) ?? '0'));
  if (!params.has('iteration') || !params.has('attempt') || values.some((v) => !Number.isSafeInteger(v) || v < 0)) return 'bad';
  const [iteration, attempt, text, thinking] = values as [number, number, number, number];
  return { iteration, attempt, text, thinking };
}

/**
 * The worker's live relay: `GET /v1/runs/<workflowId>/feed` with `Authorization: Bearer <token>` is a
 * server-sent event stream of that run's status and model text (contract/live-feed.ts). Watchers learn
 * its URL and the run's token from the model call's result in the history, or its heartbeat. However many watch a run, Temporal sees
 * one reader: the relay (see WatchedRun).
 */
export class LiveRelay {
  readonly calls = new LiveCalls();
  /** Tells the relay that a run moved, so its watchers get the new status at once. */
  readonly lifecycle: LifecycleHandler = { handle: (event) => this.runs.get(event.workflowId)?.changed() };
  private readonly runs = new Map<string, WatchedRun>();
  /** The relay's reads of Temporal still in flight, also of runs no one watches any more (see close). */
  private readonly reads = new Set<Promise<void>>();
  private readonly tokens: RelayTokens;
  private open = 0;
  private closing = false;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly options: LiveRelayOptions,
  ) {
    this.tokens = options.tokens ?? new RelayTokens();
    server.on('request', (req, res) => this.serve(req, res));
  }

  static async start(options: LiveRelayOptions): Promise<LiveRelay> {
    const server = http.createServer();
    server.headersTimeout = 10_000;
    const { host, port } = options.settings.listen;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(new LiveRelayError(`The live relay cannot listen on ${host}:${port} (${error.code ?? error.message}); set AGENT_LIVE_RELAY to a free port, or to off.`)),
      );
      server.listen(port, host, () => resolve());
    });
    return new LiveRelay(server, advertisedUrl(options.settings, (server.address() as AddressInfo).port), options);
  }

  /** A run on this worker pushed its status (the `liveStatus` sink, once a `watchStatus` query armed it). */
  pushed(workflowId: string, status: RunStatus): void {
    this.runs.get(workflowId)?.pushed(status);
  }

  /** What the model call of `workflowId` puts in its heartbeat. */
  addressFor(workflowId: string): LiveRelayAddress {
    return { url: this.url, token: this.tokens.tokenFor(this.options.namespace, workflowId) };
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.runs.values()].map((run) => run.close({ reason: 'shutting_down', message: 'The worker is shutting down.' })));
    this.runs.clear();
    this.calls.clear();
    // Each read is over before the worker closes the client's connection (each ends by its deadline at
    // the latest): the client retries a call the server turned away from a timer, and a retry on a
    // closed connection throws where nobody can catch it, which ended `npm start` with exit code 1.
    await Promise.all([...this.reads]);
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://relay');
    const match = FEED_PATH.exec(url.pathname);
    if (!match) return refuse(res, 404, `Nothing here; the feed of a run is GET ${liveFeedPath('<workflowId>')}.`);
    if (req.method !== 'GET') return refuse(res, 405, 'The feed is read with GET.', { allow: 'GET' });
    let workflowId: string;
    try {
      workflowId = decodeURIComponent(match[1]!);
    } catch {
      return refuse(res, 400, 'The workflow id in the path is not valid percent-encoding.');
    }
    const bearer = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer) return refuse(res, 401, "A run's feed needs its token (Authorization: Bearer ...), from the run's model call heartbeat.", { 'www-authenticate': 'Bearer' });
    if (!this.tokens.accepts(this.options.namespace, workflowId, bearer)) return refuse(res, 403, `The token is not this run's (${workflowId}) on this worker.`);
    const from = fromOf(url.searchParams);
    if (from === 'bad') return refuse(res, 400, 'iteration and attempt go together, and every offset is a whole number of 0 or more.');
    if (this.closing) return refuse(res, 503, 'The worker is shutting down.');
    if (this.open >= (this.options.maxSubscribers ?? 2_000)) return refuse(res, 503, 'This relay serves as many feeds as it may; poll Temporal instead, or try again later.', { 'retry-after': '5' });
    this.subscribe(workflowId, from, req, res);
  }

  private subscribe(workflowId: string, from: LiveFeedFrom | undefined, req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no', [LIVE_FEED_ENDS_ON_CLOSE]: '1' });
    res.write(': durable-agent live feed\n\n');
    this.open += 1;
    const subscriber: Subscriber = {
      send: (frame) => {
        if (res.destroyed || res.writableEnded) return;
        if (res.writableLength > MAX_BACKLOG_BYTES) return void res.destroy();
        res.write(frame);
      },
      close: () => {
        if (!res.writableEnded) res.end();
      },
    };
    const keepalive = setInterval(() => subscriber.send(': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    const run = this.runs.get(workflowId) ?? this.watch(workflowId);
    run.add(subscriber, from);
    res.on('close', () => {
      clearInterval(keepalive);
      this.open -= 1;
      if (run.remove(subscriber) && this.runs.get(workflowId) === run) {
        run.dispose();
        this.runs.delete(workflowId);
      }
    });
    req.on('error', () => res.destroy());
    res.on('error', () => undefined);
  }

  /** `read`, kept in `reads` until it settles. */
  private tracked<T>(read: Promise<T>): Promise<T> {
    const settled = read.then(
      () => undefined,
      () => undefined,
    );
    this.reads.add(settled);
    void settled.then(() => this.reads.delete(settled));
    return read;
  }

  /**
   * True once the run has closed, however (its result, or the error that says how it failed, was
   * cancelled, terminated or timed out), following continue-as-new; false once `signal` aborts or the
   * run is not found. A long poll that fails for another reason (the connection) is asked again.
   */
  private async awaitClose(client: Client, workflowId: string, signal: AbortSignal): Promise<boolean> {
    const handle = client.workflow.getHandle(workflowId);
    while (!signal.aborted) {
      try {
        await client.withAbortSignal(signal, () => handle.result());
        return true;
      } catch (error) {
        if (signal.aborted || error instanceof WorkflowNotFoundError) return false;
        if (error instanceof WorkflowFailedError) return true;
        await sleep(CLOSE_POLL_RETRY_MS, undefined, { signal }).catch(() => undefined);
      }
    }
    return false;
  }

  private watch(workflowId: string): WatchedRun {
    const client = this.options.temporal();
    const handle = client.workflow.getHandle(workflowId);
    // A run whose code predates `watchStatus` is read with `status` from then on (it pushes nothing).
    let plain = false;
    const query = async (): Promise<RunStatus> => {
      if (!plain) {
        try {
          return await handle.query(watchStatusQuery);
        } catch (error) {
          if (!(error instanceof Error && error.message.includes(`did not register a handler for ${watchStatusQuery.name}`))) throw error;
          plain = true;
        }
      }
      return handle.query(statusQuery);
    };
    const run = new WatchedRun({
      workflowId,
      calls: this.calls,
      queryStatus: () => this.tracked(client.withDeadline(Date.now() + 10_000, query)),
      readProgress: async () => heartbeatProgress(await this.tracked(client.withDeadline(Date.now() + 10_000, () => handle.describe())), client.options.loadedDataConverter),
      frame: (name, value) => feedFrame(client.options.loadedDataConverter, name, value),
      awaitClose: (signal) => this.tracked(this.awaitClose(client, workflowId, signal)),
      gone: () => {
        if (this.runs.get(workflowId) === run) this.runs.delete(workflowId);
      },
    });
    this.runs.set(workflowId, run);
    return run;
  }
}

/**
 * The worker's relay, listening, unless AGENT_LIVE_RELAY=off. A relay that cannot listen never stops
 * the worker: `warn` is told why, and without a relay in their heartbeat watchers poll Temporal.
 */
export async function startLiveRelay(
  settings: LiveRelaySettings = { listen: DEFAULT_LIVE_RELAY },
  options: Omit<LiveRelayOptions, 'settings'> & { warn: (line: string) => void },
): Promise<LiveRelay | undefined> {
  const listen = settings.listen;
  if (!listen) return undefined;
  return LiveRelay.start({ ...options, settings: { ...settings, listen } }).catch((error: unknown) => {
    options.warn(`${error instanceof Error ? error.message : String(error)} The worker runs without it: watchers poll Temporal for the model's text.`);
    return undefined;
  });
}
