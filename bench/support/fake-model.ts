// A zero-latency fake of the Messages API for benchmarks. Unlike test/support/fake-anthropic.ts it
// keeps no record of requests (a 1,000-turn run would hold gigabytes of conversation), and it asks
// one function for every reply. Usage reports a token count of the whole request, as the real API
// does, so the runtime's calibrated estimate and compaction behave as they would in production.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Anthropic from '@anthropic-ai/sdk';
import { sendMessageAsSse } from '../../src/runtime/demo/message-sse';

export type MessagesBody = Anthropic.MessageCreateParams;
export type ReplyBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

export interface FakeModel {
  baseUrl: string;
  /** Requests answered, by kind. */
  served: { model: number; summarizer: number };
  close(): Promise<void>;
}

/** Compaction's summarizer asks in a single user message that starts like this (summarize-conversation.ts). */
export function isSummarizerRequest(body: MessagesBody): boolean {
  const first = body.messages[0];
  return body.messages.length === 1 && typeof first?.content === 'string' && first.content.startsWith('The task:');
}

export interface FakeModelOptions {
  /** How long every model reply waits before it is sent, as a real model would think (default 0). */
  latencyMs?: number;
  /** Called when a model reply (not a summary) has been written out in full. */
  replied?: (body: MessagesBody) => void;
}

export async function startFakeModel(answer: (body: MessagesBody) => ReplyBlock[], options: FakeModelOptions = {}): Promise<FakeModel> {
  const served = { model: 0, summarizer: 0 };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let content: ReplyBlock[];
    let status = 200;
    let streamed = false;
    try {
      const body = JSON.parse(raw) as MessagesBody;
      streamed = body.stream === true;
      if (isSummarizerRequest(body)) {
        served.summarizer += 1;
        content = [{ type: 'text', text: `Summary ${served.summarizer}: earlier steps ran and succeeded.` }];
      } else {
        served.model += 1;
        content = answer(body);
        if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
        if (options.replied) res.once('finish', () => options.replied!(body));
      }
    } catch (error) {
      status = 500;
      content = [{ type: 'text', text: `fake-model: ${String(error)}` }];
    }
    const payload =
      status === 200
        ? {
            id: `msg_bench_${served.model + served.summarizer}`,
            type: 'message',
            role: 'assistant',
            model: 'bench',
            content,
            stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: Math.ceil(raw.length / 4), output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          }
        : { type: 'error', error: { type: 'api_error', message: (content[0] as { text: string }).text } };
    // The model activity streams (it heartbeats as the answer arrives), so answer as the API does.
    if (status === 200 && streamed) return void sendMessageAsSse(res, payload as Parameters<typeof sendMessageAsSse>[1]);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The task text of a request: its first user message. */
export function taskOf(body: MessagesBody): string {
  const first = body.messages[0];
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return first.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}
