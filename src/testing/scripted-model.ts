// A scripted fake of the Anthropic Messages API, served over real HTTP on 127.0.0.1.
//
// Tests point the real `@anthropic-ai/sdk` client at it (`baseURL`), so request building, error
// mapping and retry headers are exercised exactly as in production; only the model is scripted.
//
// A script is chosen by a substring of the first user message (the task). Within a script, the
// reply is chosen by how many assistant messages the request already carries, so a retried or
// replayed request gets the same answer: the fake is deterministic and idempotent, like a
// Temporal activity must be.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendMessageAsSse, type SseMessage } from '../runtime/demo/message-sse';
import { PromptCacheRequestError, PromptCacheSimulator, withoutCacheMarks } from './prompt-cache-simulator';
import { ThinkingLedger } from './thinking-check';

export * from './scripted-steps';
import { estimateTokens, Reply, type Disconnect, type Failure, type FakeRequest, type MessagesBody, type ReplySpec, type Step } from './scripted-steps';


const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** Failures are served, in order and once each, before the reply they precede. */
interface Slot {
  failures: (Failure | Disconnect)[];
  reply?: Reply;
  failuresServed: number;
}

interface Script {
  match: string;
  slots: Slot[];
}

function toSlots(steps: Step[]): Slot[] {
  const slots: Slot[] = [{ failures: [], failuresServed: 0 }];
  for (const step of steps) {
    const slot = slots[slots.length - 1]!;
    if (step.kind === 'failure' || step.kind === 'disconnect') slot.failures.push(step);
    else {
      slot.reply = step;
      slots.push({ failures: [], failuresServed: 0 });
    }
  }
  return slots;
}

function firstUserText(body: MessagesBody): string {
  const first = body.messages?.find((m) => m.role === 'user');
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return first.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/**
 * The scripted model: a fake Messages API on loopback that answers each task with the replies
 * scripted for it, and records every request.
 */
export interface ScriptedModel {
  /** Where it listens (the worker's ANTHROPIC_BASE_URL). */
  baseUrl: string;
  /** Every Messages request, in arrival order. */
  requests: FakeRequest[];
  countTokensRequests: MessagesBody[];
  /** Requests the scripts could not answer; a test should usually end with this empty. */
  errors: string[];
  /** When false, count_tokens answers 404, as for a model or gateway that lacks it. */
  countTokensEnabled: boolean;
  /** Scripts the replies to every task whose first user message contains `match`, in order. */
  script(match: string, steps: Step[]): void;
  /** The requests the script `match` answered. */
  requestsFor(match: string): FakeRequest[];
  /** Forgets scripts and records, so one server can serve several tests. */
  reset(): void;
  close(): Promise<void>;
}

/** The name this project's own tests know the scripted model by. */
export type FakeAnthropic = ScriptedModel;

export interface FakeAnthropicOptions {
  countTokens?: boolean;
  /** Where to listen (default 127.0.0.1), e.g. an address workers in network namespaces can reach. */
  host?: string;
  /**
   * Apply Anthropic's prompt-caching rules (see prompt-cache-simulator.ts): usage then reports the
   * prompt's real size, split into cache reads, cache writes and uncached input, instead of the
   * scripted input tokens (output tokens stay scripted).
   */
  promptCache?: boolean | { minTokens?: number };
}

export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<ScriptedModel> {
  const scripts: Script[] = [];
  let served = 0;
  const cache = opts.promptCache ? new PromptCacheSimulator(opts.promptCache === true ? {} : opts.promptCache) : undefined;
  // Thinking and server tool blocks sent, to refuse a request that brings them back changed (as the API does).
  const ledger = new ThinkingLedger();

  const fake: ScriptedModel = {
    baseUrl: '',
    requests: [],
    countTokensRequests: [],
    errors: [],
    countTokensEnabled: opts.countTokens ?? true,
    script(match: string, steps: Step[]): void {
      // Two scripts for one task would make the answer depend on registration order: refuse early.
      if (scripts.some((s) => s.match === match)) throw new Error(`fake-anthropic: script "${match}" already exists`);
      scripts.push({ match, slots: toSlots(steps) });
    },
    requestsFor(match: string): FakeRequest[] {
      return fake.requests.filter((r) => r.match === match);
    },
    reset(): void {
      scripts.length = 0;
      fake.requests.length = 0;
      fake.countTokensRequests.length = 0;
      fake.errors.length = 0;
    },
    close(): Promise<void> {
      // The SDK keeps connections alive; without this, close() would wait for them to time out.
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };

  const send = (res: http.ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return; // The client gave up (a timeout); nobody is listening.
    const data = typeof payload === 'string' ? payload : JSON.stringify(payload);
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake_${++served}`, ...headers });
    res.end(data);
  };
  const sendError = (res: http.ServerResponse, status: number, message: string, record = true) => {
    if (record) fake.errors.push(message);
    send(res, status, { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } });
  };

  async function answerMessages(wire: MessagesBody, headers: http.IncomingHttpHeaders, res: http.ServerResponse, remoteAddress?: string) {
    const body = withoutCacheMarks(wire);
    const task = firstUserText(body);
    const script = scripts.find((s) => task.includes(s.match));
    const index = (body.messages ?? []).filter((m) => m.role === 'assistant').length;
    const request: FakeRequest = { match: script?.match, index, body, wire, headers, at: Date.now(), textSentAt: [], remoteAddress };
    fake.requests.push(request);
    if (!script) {
      const known = scripts.map((s) => JSON.stringify(s.match)).join(', ') || 'none';
      return sendError(res, 400, `fake-anthropic: no script matches task ${JSON.stringify(task.slice(0, 200))} (scripts: ${known})`);
    }
    const refused = ledger.check(script.match, body);
    if (refused) return sendError(res, 400, `fake-anthropic: ${refused}`);
    const slot = script.slots[index];
    if (slot && slot.failuresServed < slot.failures.length) {
      const failure = slot.failures[slot.failuresServed++]!;
      if (failure.kind === 'disconnect') return void res.socket?.destroy();
      const retryAfter = typeof failure.retryAfter === 'function' ? failure.retryAfter() : failure.retryAfter;
      const retryHeaders: Record<string, string> = {
        ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
        ...(failure.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(failure.retryAfterMs) }),
      };
      if (failure.body !== undefined) return send(res, failure.status, failure.body, retryHeaders);
      const error = { type: ERROR_TYPES[failure.status] ?? 'api_error', message: `fake-anthropic: scripted ${failure.status}` };
      return send(res, failure.status, { type: 'error', error }, retryHeaders);
    }
    if (!slot?.reply) return sendError(res, 500, `fake-anthropic: script for "${script.match}" has no reply #${index}`);
    let cached: ReturnType<PromptCacheSimulator['apply']> | undefined;
    try {
      cached = cache?.apply(wire);
      request.cacheUsage = cached;
    } catch (error) {
      if (error instanceof PromptCacheRequestError) return sendError(res, 400, error.message);
      throw error;
    }
    const outer = slot.reply.spec;
    await outer.gate;
    const built = outer.build?.(request).spec;
    const spec = built ? { ...built, delayMs: built.delayMs || outer.delayMs, chunks: built.chunks ?? outer.chunks } : outer;
    let toolNo = 0;
    // Ids derive from the position, so a retried request sees the same tool_use ids.
    const content = (spec.blocks ?? []).map((b) =>
      b.type === 'tool_use' ? { ...b, id: b.id ?? `toolu_${index}_${toolNo++}` } : b.type === 'text' ? { citations: null, ...b } : b,
    );
    // A request that ends with an assistant message continues that turn (a paused one, `pause_turn`).
    const last = body.messages?.at(-1);
    const paused = last?.role === 'assistant' && typeof last.content !== 'string' ? (last.content as unknown as { type: string }[]) : [];
    ledger.issue(script.match, content as { type: string }[], paused);
    const message = {
      id: `msg_fake_${scripts.indexOf(script)}_${index}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: spec.stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...spec.usage, ...cached },
    };
    if (body.stream) return stream(res, message, spec, request);
    if (spec.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, spec.delayMs));
    send(res, 200, message);
    request.answeredAt = Date.now();
  }

  async function stream(res: http.ServerResponse, message: SseMessage, spec: ReplySpec, request: FakeRequest) {
    await sendMessageAsSse(res, message, {
      delayMs: spec.delayMs,
      chunks: spec.chunks,
      requestId: `req_fake_${++served}`,
      onText: (text) => request.textSentAt.push({ text, at: Date.now() }),
    });
    if (!res.destroyed) request.answeredAt = Date.now();
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    let body: MessagesBody;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as MessagesBody;
    } catch {
      return sendError(res, 400, `fake-anthropic: ${req.method} ${path} sent a body that is not JSON`);
    }
    if (req.method === 'POST' && path === '/v1/messages') {
      // A throwing dynamic reply must become a visible error, not a hung request.
      return answerMessages(body, req.headers, res, req.socket.remoteAddress).catch((err: unknown) =>
        sendError(res, 500, `fake-anthropic: dynamic reply threw: ${String(err)}`),
      );
    }
    if (req.method === 'POST' && path === '/v1/messages/count_tokens' && fake.countTokensEnabled) {
      fake.countTokensRequests.push(body);
      return send(res, 200, { input_tokens: estimateTokens(body) });
    }
    // A disabled count_tokens is an expected 404, not a script error.
    sendError(res, 404, `fake-anthropic: no route for ${req.method} ${path}`, !path.endsWith('/count_tokens'));
  });

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  fake.baseUrl = `http://${host}:${(server.address() as AddressInfo).port}`;
  return fake;
}
