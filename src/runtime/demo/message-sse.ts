import type http from 'node:http';

/** A Messages API answer, as the demo model and the test fake build it before sending. */
export interface SseMessage {
  content: Array<{ type: string; [key: string]: unknown }>;
  usage: { output_tokens: number; [key: string]: unknown };
  stop_reason: string | null;
  [key: string]: unknown;
}

export interface SseOptions {
  /** Spent after message_start, with a ping every second, as the real API does while the model thinks. */
  delayMs?: number;
  /** Text goes out in pieces of `chars` characters, `delayMs` apart. */
  chunks?: { chars: number; delayMs: number };
  requestId?: string;
  /** Called as each text piece is written, for measurements of how long it takes to reach a reader. */
  onText?: (text: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends `message` the way the Messages API streams (server-sent events): message_start, each block's
 * start, deltas and stop, then message_delta and message_stop. Stops quietly when the client goes away
 * (a killed worker). Used by the offline demo model and by the tests' fake API.
 */
export async function sendMessageAsSse(res: http.ServerResponse, message: SseMessage, options: SseOptions = {}): Promise<void> {
  const event = (type: string, data: Record<string, unknown>) => {
    if (!res.destroyed) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', ...(options.requestId ? { 'request-id': options.requestId } : {}) });
  const { content, usage, stop_reason, ...rest } = message;
  event('message_start', { message: { ...rest, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  const delayMs = options.delayMs ?? 0;
  for (let waited = 0; waited < delayMs && !res.destroyed; waited += 1_000) {
    await sleep(Math.min(1_000, delayMs - waited));
    event('ping', {});
  }
  for (const [index, block] of content.entries()) {
    if (res.destroyed) return;
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '', citations: null } });
      const text = String(block.text);
      const size = options.chunks?.chars ?? Math.max(1, text.length);
      for (let at = 0; at < text.length; at += size) {
        if (options.chunks && at > 0) await sleep(options.chunks.delayMs);
        const piece = text.slice(at, at + size);
        event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
        options.onText?.(piece);
      }
      // As the API sends a web search answer's sources: one citations_delta per citation, after the text.
      for (const citation of Array.isArray(block.citations) ? block.citations : []) event('content_block_delta', { index, delta: { type: 'citations_delta', citation } });
    } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      // A server tool call streams like a tool call: its input arrives as JSON deltas.
      event('content_block_start', { index, content_block: { ...block, input: {} } });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) } });
    } else if (block.type === 'thinking') {
      // As the API sends thinking: the text in deltas, then the signature in one signature_delta.
      const { thinking, signature, ...fields } = block;
      event('content_block_start', { index, content_block: { ...fields, thinking: '', signature: '' } });
      const textOfThinking = String(thinking);
      const size = Math.max(1, Math.ceil(textOfThinking.length / 2));
      for (let at = 0; at < textOfThinking.length; at += size) {
        event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: textOfThinking.slice(at, at + size) } });
      }
      event('content_block_delta', { index, delta: { type: 'signature_delta', signature: String(signature) } });
    } else {
      event('content_block_start', { index, content_block: block });
    }
    event('content_block_stop', { index });
  }
  event('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  event('message_stop', {});
  res.end();
}
