// A watcher's side of a worker's live relay (src/runtime/live/live-relay.ts): one server-sent event
// stream of a run's status and model text, read with fetch and parsed with eventsource-parser. Every
// event is checked before it is believed; anything the relay says that does not fit ends the feed,
// and the follower falls back to reading Temporal itself.
import type { LoadedDataConverter } from '@temporalio/common';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { LIVE_FEED_ENDS_ON_CLOSE, LiveFeedEndSchema, liveFeedPath, LivePieceSchema, type LiveFeedEnd, type LiveFeedFrom, type LivePiece, type LiveRelayAddress } from '../contract/live-feed';
import { RunPhaseSchema } from '../contract/run-records';
import type { RunStatus } from '../contract/run-status';
import { decodeFeedData } from '../runtime/live/feed-frames';

/** The relay refused this token (401, 403): trying again with it cannot help. */
export class RelayRefusedError extends Error {
  override readonly name = 'RelayRefusedError';
}

/** The relay could not be reached, answered otherwise than with a feed, or sent something malformed. */
export class RelayUnavailableError extends Error {
  override readonly name = 'RelayUnavailableError';
}

/**
 * The feed's events, after `open` (the feed is served; `endsOnClose`: the relay ends it with `closed`
 * once the run has closed, so the watcher need not watch for the end itself).
 */
export type RelayFeedEvent =
  | { type: 'open'; endsOnClose: boolean }
  | { type: 'status'; status: RunStatus }
  | { type: 'text'; piece: LivePiece }
  | { type: 'end'; end: LiveFeedEnd };

/** How long connecting may take before the relay counts as unreachable (a firewall that drops packets). */
const CONNECT_TIMEOUT_MS = 3_000;
/** The relay writes at least a keepalive every 15 s; silence this long means its host is gone. */
const SILENCE_MS = 40_000;

async function refusal(res: Response): Promise<string> {
  const body = (await res.json().catch(() => undefined)) as { error?: unknown } | undefined;
  return `HTTP ${res.status}${typeof body?.error === 'string' ? `: ${body.error}` : ''}`;
}

function isStatusOf(workflowId: string, value: unknown): value is RunStatus {
  const status = value as Partial<RunStatus> | undefined;
  return status?.workflowId === workflowId && RunPhaseSchema.safeParse(status.phase).success && typeof status.iteration === 'number';
}

async function eventOf(message: EventSourceMessage, workflowId: string, converter: LoadedDataConverter): Promise<RelayFeedEvent | undefined> {
  const value = await decodeFeedData(converter, message.data).catch((error: unknown) => {
    throw new RelayUnavailableError(`The relay sent a ${message.event ?? 'message'} event this client cannot decode (${(error as Error).message}); are its encryption keys the worker's?`);
  });
  if (message.event === 'status') {
    if (!isStatusOf(workflowId, value)) throw new RelayUnavailableError(`The relay sent a status that is not run ${workflowId}'s.`);
    return { type: 'status', status: value };
  }
  if (message.event === 'text') {
    const piece = LivePieceSchema.safeParse(value);
    if (!piece.success) throw new RelayUnavailableError('The relay sent a malformed text event.');
    return { type: 'text', piece: piece.data };
  }
  if (message.event === 'end') {
    const end = LiveFeedEndSchema.safeParse(value);
    return { type: 'end', end: end.success ? end.data : { reason: 'shutting_down', message: 'The relay ended the feed.' } };
  }
  return undefined; // An event this client does not know yet: a newer relay's, skipped.
}

/**
 * The run's feed from `address` until the relay ends it or `signal` aborts. `from` says how much of
 * which call this watcher has, so the relay sends the rest of it (the text so far, for a late one).
 */
export async function* relayFeed(
  address: LiveRelayAddress,
  workflowId: string,
  from: LiveFeedFrom | undefined,
  converter: LoadedDataConverter,
  signal: AbortSignal,
): AsyncGenerator<RelayFeedEvent, void, undefined> {
  const url = new URL(liveFeedPath(workflowId), address.url);
  if (from) for (const [key, value] of Object.entries(from)) url.searchParams.set(key, String(value));
  const connecting = AbortSignal.timeout(CONNECT_TIMEOUT_MS);
  const reading = new AbortController();
  const onConnectTimeout = () => reading.abort(connecting.reason);
  connecting.addEventListener('abort', onConnectTimeout, { once: true });
  const stop = () => reading.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  let silence: NodeJS.Timeout | undefined;
  const quiet = () => {
    clearTimeout(silence);
    silence = setTimeout(() => reading.abort(new Error(`nothing for ${SILENCE_MS / 1000}s`)), SILENCE_MS);
  };
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${address.token}`, accept: 'text/event-stream' }, signal: reading.signal }).catch((error: unknown) => {
      throw new RelayUnavailableError(`The relay at ${address.url} cannot be reached: ${(error as Error).message}`);
    });
    connecting.removeEventListener('abort', onConnectTimeout);
    if (res.status === 401 || res.status === 403) throw new RelayRefusedError(`The relay at ${address.url} refused the feed of ${workflowId}: ${await refusal(res)}`);
    if (!res.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
      throw new RelayUnavailableError(`The relay at ${address.url} did not serve the feed: ${await refusal(res)}`);
    }
    yield { type: 'open', endsOnClose: res.headers.get(LIVE_FEED_ENDS_ON_CLOSE) === '1' };
    const messages: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (message) => messages.push(message) });
    const decoder = new TextDecoder();
    quiet();
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      quiet();
      parser.feed(decoder.decode(chunk, { stream: true }));
      while (messages.length > 0) {
        const event = await eventOf(messages.shift()!, workflowId, converter);
        if (!event) continue;
        yield event;
        if (event.type === 'end') return;
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    if (error instanceof RelayRefusedError || error instanceof RelayUnavailableError) throw error;
    throw new RelayUnavailableError(`The feed from ${address.url} broke off: ${(error as Error).message}`);
  } finally {
    clearTimeout(silence);
    connecting.removeEventListener('abort', onConnectTimeout);
    signal.removeEventListener('abort', stop);
    reading.abort();
  }
}
