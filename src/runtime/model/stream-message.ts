import type Anthropic from '@anthropic-ai/sdk';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { FailureType } from '../../contract/errors';
import type { LiveRelayAddress, LivePiece } from '../../contract/live-feed';
import { toModelFailure } from './model-errors';
import type { ModelClient } from './providers/model-client';

/** What a streaming model call reports while it runs (the activity heartbeats it; the CLI shows `text`). */
export interface StreamProgress {
  /** The model's text so far, at most the last `LIVE_TEXT_CHARS` characters of it. */
  text: string;
  /** How many characters of text the model has written in all; a reader prints only what is new. */
  chars: number;
  /** Which attempt of the call this is, so a reader starts over when a retry begins. */
  attempt: number;
  /** The run's iteration, added by the model activity (the summarizer's calls have none). */
  iteration?: number;
  /** The model's thinking so far (its last `LIVE_TEXT_CHARS` characters), only once it has thought. */
  thinking?: string;
  /** How many characters of thinking the model has written in all. */
  thinkingChars?: number;
  /** Where this worker's relay serves the run's live feed, added by the model activity when the worker runs one. */
  relay?: LiveRelayAddress;
}

/** How much of the streamed text goes into each heartbeat: enough for a live view, small enough to send often. */
export const LIVE_TEXT_CHARS = 4_000;

export interface StreamOptions {
  /** Called on every stream event and on a timer; the caller passes it to the activity heartbeat. */
  progress: (progress: StreamProgress) => void;
  /** Aborts the HTTP request (the activity was cancelled or its worker is shutting down). */
  signal: AbortSignal;
  /** Abandon a stream that sent nothing for this long; the attempt is retried like an outage. */
  idleMs: number;
  attempt: number;
  /** How often to report progress while no event arrives (the first token can take a while). */
  keepAliveMs?: number;
  /** Called with each piece of text or thinking as it arrives (the worker's live relay pushes it on). */
  onDelta?: (kind: LivePiece['kind'], delta: string) => void;
}

/**
 * One Messages API call with the SDK's streaming API. Streaming means no request-wide time limit
 * applies, so a long `max_tokens` is fine, and every event proves the call is alive: progress is
 * reported on each one (and on a timer while the model thinks) for the activity to heartbeat. A
 * stream that goes silent for `idleMs` is abandoned as unavailable, so a hung connection is retried.
 */
export async function streamMessage(client: ModelClient, params: Anthropic.MessageCreateParamsNonStreaming, options: StreamOptions): Promise<Anthropic.Message> {
  const stalled = new AbortController();
  const signal = AbortSignal.any([options.signal, stalled.signal]);
  let text = '';
  let chars = 0;
  let thinking = '';
  let thinkingChars = 0;
  let lastEvent = Date.now();
  // Thinking goes into the heartbeat only once there is some, so replies without it heartbeat as before.
  const thought = () => (thinkingChars > 0 ? { thinking, thinkingChars } : {});
  const report = () => options.progress({ text: text.slice(-LIVE_TEXT_CHARS), chars, attempt: options.attempt, ...thought() });
  const timer = setInterval(() => {
    if (Date.now() - lastEvent > options.idleMs) stalled.abort();
    else report();
  }, options.keepAliveMs ?? 2_000);
  try {
    const stream = client.messages.stream(params, { signal });
    stream.on('streamEvent', () => {
      lastEvent = Date.now();
    });
    stream.on('text', (delta) => {
      text = (text + delta).slice(-LIVE_TEXT_CHARS);
      chars += delta.length;
      options.onDelta?.('text', delta);
      report();
    });
    stream.on('thinking', (delta) => {
      thinking = (thinking + delta).slice(-LIVE_TEXT_CHARS);
      thinkingChars += delta.length;
      options.onDelta?.('thinking', delta);
      report();
    });
    report();
    return await stream.finalMessage();
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason ?? error;
    if (stalled.signal.aborted) {
      throw ApplicationFailure.create({
        type: FailureType.ModelUnavailable,
        message: `The model stream sent nothing for ${Math.round(options.idleMs / 1000)}s and was abandoned; retrying.`,
        category: ApplicationFailureCategory.BENIGN,
      });
    }
    throw toModelFailure(error, params.model);
  } finally {
    clearInterval(timer);
  }
}
