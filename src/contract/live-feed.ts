import { z } from 'zod';
import type { RunStatus } from './run-status';

/**
 * The live feed of a run, pushed by a worker's relay (src/runtime/live/) to watchers that found it
 * through the model call's result or heartbeat: the model's text as it streams and the run's status when it
 * changes. The path, the event names and their payloads are a contract with other clients
 * (docs/guides/cli.md, "How watch gets the text"): add fields, never rename one.
 */

/** Where one run's feed is served, and the bearer token it takes, as the `callModel` heartbeat and result carry them. */
export const LiveRelayAddressSchema = z.object({
  /** The relay's base URL, e.g. `http://127.0.0.1:41234` (AGENT_LIVE_RELAY_URL when set). */
  url: z.string().url().refine((url) => /^https?:\/\//.test(url), 'must be an http(s) URL'),
  /** A token for this run's feed only (an HMAC of the run's namespace and workflow id). */
  token: z.string().min(16),
});
export type LiveRelayAddress = z.infer<typeof LiveRelayAddressSchema>;

/**
 * A response header of the feed (value `1`): this relay watches the run's end itself and ends the feed
 * with `closed` once the run has closed, however it closed. A watcher that sees it need not hold a long
 * poll for the run's end of its own while the feed lasts, so a hundred watchers cost Temporal one such
 * poll. Without it (an older relay) the watcher watches the end itself.
 */
export const LIVE_FEED_ENDS_ON_CLOSE = 'x-live-feed-ends-on-close';

/** The feed of `workflowId` under a relay's base URL. */
export function liveFeedPath(workflowId: string): string {
  return `/v1/runs/${encodeURIComponent(workflowId)}/feed`;
}

/**
 * How much of one model call a subscriber already has, sent as query parameters (`iteration`,
 * `attempt`, `text`, `thinking`): the relay sends that call's text from there on, so a late or
 * returning subscriber gets the text so far, once. Without them it gets the current call from the start.
 */
export interface LiveFeedFrom {
  iteration: number;
  attempt: number;
  /** Characters of text the subscriber has. */
  text: number;
  /** Characters of thinking the subscriber has. */
  thinking: number;
}

/** New text or thinking of one model call: `text` starts at character `offset` of that call's whole text. */
export const LivePieceSchema = z.object({
  kind: z.enum(['text', 'thinking']),
  iteration: z.number().int().min(0),
  attempt: z.number().int().min(1),
  offset: z.number().int().min(0),
  text: z.string(),
});
export type LivePiece = z.infer<typeof LivePieceSchema>;

/**
 * Why a feed ended on the relay's side: the run does not exist, the relay is shutting down, or the run
 * has closed (completed, failed, cancelled, terminated or timed out; its last status came before).
 */
export const LiveFeedEndSchema = z.object({ reason: z.enum(['not_found', 'shutting_down', 'closed']), message: z.string() });
export type LiveFeedEnd = z.infer<typeof LiveFeedEndSchema>;

/**
 * The feed's events by SSE event name. Each `data` is one Temporal payload encoded by the worker's
 * data converter (so AGENT_ENCRYPTION_KEY encrypts it as it does the heartbeat), written as JSON
 * `{ "metadata": { key: base64 }, "data": base64 }`.
 */
export interface LiveFeedEvents {
  /** The run's status (the `status` query's answer), sent on subscribing and whenever it changed. */
  status: RunStatus;
  text: LivePiece;
  end: LiveFeedEnd;
}
export type LiveFeedEventName = keyof LiveFeedEvents;
