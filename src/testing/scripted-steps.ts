// The steps a fake Messages API script is made of (replies, failures, disconnects) and their builders;
// the server that plays them is fake-anthropic.ts, which re-exports all of this.
import type http from 'node:http';
import type Anthropic from '@anthropic-ai/sdk';
import type { CacheUsage } from './prompt-cache-simulator';

export type TextBlock = { type: 'text'; text: string };
export type ToolCallBlock = { type: 'tool_use'; name: string; input: unknown; id?: string };
/** Any other block (thinking, server tools...) is passed through as given. */
export type RawBlock = { type: string; [key: string]: unknown };
export type ReplyBlock = TextBlock | ToolCallBlock | RawBlock;

export type MessagesBody = Anthropic.MessageCreateParams;
export interface FakeRequest {
  /** The script that answered, or undefined when none matched. */
  match: string | undefined;
  /** Number of assistant messages in the request: which reply of the script it gets. */
  index: number;
  /** The request as the model sees its content (prompt-caching marks taken out, see prompt-cache-simulator.ts). */
  body: MessagesBody;
  /** The request exactly as it was sent, `cache_control` marks included. */
  wire: MessagesBody;
  /** When each streamed text piece was written to the socket, for latency measurements. */
  textSentAt: { text: string; at: number }[];
  /** With `promptCache`: how the simulated cache split this request's prompt. */
  cacheUsage?: CacheUsage;
  headers: http.IncomingHttpHeaders;
  at: number;
  /** Where the request came from (tests with workers on several simulated hosts tell them apart by it). */
  remoteAddress?: string;
  /** When the whole answer was sent (undefined while it is being sent, or if the client went away). */
  answeredAt?: number;
}

export interface ReplySpec {
  blocks?: ReplyBlock[];
  build?: (request: FakeRequest) => Reply;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens?: number;
    cache_read_input_tokens?: number;
    output_tokens_details?: { thinking_tokens: number };
    server_tool_use?: { web_search_requests: number; web_fetch_requests: number };
  };
  stopReason?: Anthropic.StopReason;
  delayMs: number;
  /** When streamed, text goes out in pieces of `chars` characters, `delayMs` apart. */
  chunks?: { chars: number; delayMs: number };
  /** The answer is held until this settles: a test opens the gate when it has seen what it waits for. */
  gate?: Promise<unknown>;
}

/** One assistant message. Modifiers return a copy, so a shared step is never changed in place. */
export class Reply {
  readonly kind = 'reply';
  constructor(readonly spec: ReplySpec) {}
  /** Waits before answering, for timeouts and benchmarks. */
  delay(ms: number): Reply {
    return new Reply({ ...this.spec, delayMs: ms });
  }
  withUsage(usage: Partial<ReplySpec['usage']>): Reply {
    return new Reply({ ...this.spec, usage: { ...this.spec.usage, ...usage } });
  }
  /** Streams text in pieces of `chars` characters, `delayMs` apart (for live-output tests). */
  chunked(chars: number, delayMs: number): Reply {
    return new Reply({ ...this.spec, chunks: { chars, delayMs } });
  }
  /**
   * Holds the answer until `gate` settles, so a test can act while the run is surely inside this model
   * call (instead of betting on a delay being long enough).
   */
  until(gate: Promise<unknown>): Reply {
    return new Reply({ ...this.spec, gate });
  }
  /** Overrides the stop reason derived from the blocks, e.g. to test `max_tokens`. */
  withStopReason(stopReason: Anthropic.StopReason): Reply {
    return new Reply({ ...this.spec, stopReason });
  }
}

export interface Failure {
  readonly kind: 'failure';
  status: number;
  /**
   * Sent as the `retry-after` header: seconds, a string as it is, or a function called when the
   * failure is served (for the HTTP-date form, which must be computed at that moment).
   */
  retryAfter?: number | string | (() => string);
  /** Milliseconds, sent as the `retry-after-ms` header. */
  retryAfterMs?: number;
  /** Replaces the Anthropic-style error body; strings are sent as they are. */
  body?: unknown;
}

/** The connection is dropped without an answer, as by a crashed proxy: the SDK sees a connection error. */
export interface Disconnect {
  readonly kind: 'disconnect';
}

export type Step = Reply | Failure | Disconnect;

export const text = (t: string): TextBlock => ({ type: 'text', text: t });
export const toolCall = (name: string, input: unknown, id?: string): ToolCallBlock =>
  id === undefined ? { type: 'tool_use', name, input } : { type: 'tool_use', name, input, id };

/**
 * A thinking block. The signature defaults to one derived from the text, as stable as the fake's ids;
 * the scripted model answers 400 when a block it sent comes back changed, dropped or moved, as the API does.
 */
export const thinking = (t: string, signature = `sig_${Buffer.from(t).toString('base64url').slice(0, 24)}_${t.length}`): RawBlock => ({ type: 'thinking', thinking: t, signature });
export const redactedThinking = (data: string): RawBlock => ({ type: 'redacted_thinking', data });
/** A server tool call (the API ran it), with the `caller` field the API adds. */
export const serverToolUse = (name: string, input: unknown, id: string): RawBlock => ({ type: 'server_tool_use', id, name, input, caller: { type: 'direct' } });
/** A web search result block for the server tool call `toolUseId`. */
export const webSearchResult = (toolUseId: string, urls: string[]): RawBlock => ({
  type: 'web_search_tool_result',
  tool_use_id: toolUseId,
  caller: { type: 'direct' },
  content: urls.map((url, i) => ({ type: 'web_search_result', url, title: `Result ${i + 1}`, encrypted_content: `enc_${i}_${url.length}`, page_age: null })),
});

/** Text with the sources the API cites for it (web search answers carry `web_search_result_location`s). */
export const citedText = (t: string, citations: RawBlock[]): RawBlock => ({ type: 'text', text: t, citations });
/** A web search citation as the API sends it, with its opaque `encrypted_index`. */
export const webSearchCitation = (url: string, citedText: string): RawBlock => ({
  type: 'web_search_result_location',
  url,
  title: `Page at ${url}`,
  cited_text: citedText,
  encrypted_index: `Eo${Buffer.from(url).toString('base64url')}`,
});
/** A file the API put into the code execution container. */
export const containerUpload = (fileId: string): RawBlock => ({ type: 'container_upload', file_id: fileId });

/** A reply from content blocks, or from a function of the request for scripts that must look at it. */
export function reply(...args: ReplyBlock[] | [(request: FakeRequest) => Reply]): Reply {
  const usage = { input_tokens: 100, output_tokens: 20 };
  const [first] = args;
  if (typeof first === 'function') return new Reply({ build: first, usage, delayMs: 0 });
  return new Reply({ blocks: args as ReplyBlock[], usage, delayMs: 0 });
}

export const fail = (status: number, opts: Omit<Failure, 'kind' | 'status'> = {}): Failure => ({
  kind: 'failure',
  status,
  ...opts,
});

/** Drops the request's connection without answering; served once, in order, like a failure. */
export const disconnect = (): Disconnect => ({ kind: 'disconnect' });

/** The token estimate served by count_tokens: a quarter of the JSON length of what is counted. */
export function estimateTokens(body: Pick<MessagesBody, 'messages' | 'system' | 'tools'>): number {
  return Math.ceil(JSON.stringify({ messages: body.messages, system: body.system, tools: body.tools }).length / 4);
}
