// An offline stand-in for the Anthropic Messages API, for `npm start` without ANTHROPIC_API_KEY (and
// the screenshots script). It serves HTTP on loopback, so the worker runs its real code path (the
// SDK, the model activity, the tools, the approval gate); only the model's answers are scripted.
//
// The script walks through what a newcomer should see once: a task list (update_tasks), a read tool
// (list_files), a write that needs approval (write_file), progress updates and complete_task. The
// step is the number of assistant messages already in the conversation, so a retried request gets
// the same answer, as a Temporal activity needs.
import http from 'node:http';
import { sendMessageAsSse } from './message-sse';
import type { AddressInfo } from 'node:net';
import type Anthropic from '@anthropic-ai/sdk';

/** Printed wherever the demo model speaks, so nobody mistakes it for Claude. */
export const DEMO_LABEL = '[demo model: offline, scripted]';

export const DEMO_NOTES_FILE = 'demo-notes.md';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };
type Status = 'pending' | 'in_progress' | 'completed' | 'skipped';

const tasks = (look: Status, write: Status, wrap: Status) => ({
  tasks: [
    { id: '1', description: 'Look around the workspace', status: look },
    { id: '2', description: `Write ${DEMO_NOTES_FILE} (asks for approval)`, status: write },
    { id: '3', description: 'Wrap up with complete_task', status: wrap },
  ],
});

/** The tool_result blocks of the request's last message, by tool_use id. */
function lastResults(body: Anthropic.MessageCreateParams): Map<string, { text: string; isError: boolean }> {
  const results = new Map<string, { text: string; isError: boolean }>();
  const last = body.messages.at(-1);
  if (!last || typeof last.content === 'string') return results;
  for (const block of last.content) {
    if (block.type !== 'tool_result') continue;
    const text = typeof block.content === 'string' ? block.content : (block.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
    results.set(block.tool_use_id, { text, isError: block.is_error === true });
  }
  return results;
}

/** The scripted answer to a request: the next step of the demo, judged from the conversation so far. */
export function demoReply(body: Anthropic.MessageCreateParams): Block[] {
  const step = body.messages.filter((m) => m.role === 'assistant').length;
  const tools = new Set((body.tools ?? []).map((t) => ('name' in t ? t.name : '')));
  const id = (n: number) => `toolu_demo_${step}_${n}`;
  const say = (text: string): Block => ({ type: 'text', text: `${DEMO_LABEL} ${text}` });
  const call = (n: number, name: string, input: unknown): Block => ({ type: 'tool_use', id: id(n), name, input });
  // A request without tools (a summary for compaction) gets plain text.
  if (tools.size === 0) return [say('Summary: the demo looked around the workspace and wrote a notes file.')];

  if (step === 0) {
    return [
      say("Hello! I am the offline demo model. I'll keep a task list, look around the workspace, then write a notes file."),
      call(0, 'update_tasks', tasks('in_progress', 'pending', 'pending')),
      call(1, 'list_files', { path: '.' }),
    ];
  }
  if (step === 1) {
    const listing = lastResults(body).get('toolu_demo_0_1')?.text ?? '(no listing)';
    if (!tools.has('write_file')) {
      return [
        call(0, 'update_tasks', tasks('completed', 'skipped', 'completed')),
        call(1, 'complete_task', { summary: `${DEMO_LABEL} Looked around; this agent cannot write files, so no notes were written.`, status: 'partial' }),
      ];
    }
    const content = [`# Demo notes`, '', `Written by the ${DEMO_LABEL} during \`npm start\`.`, '', 'The workspace held:', '', '```', listing, '```', ''].join('\n');
    return [
      say(`Found the workspace contents. Now I'd like to write ${DEMO_NOTES_FILE}; write_file needs your approval.`),
      call(0, 'update_tasks', tasks('completed', 'in_progress', 'pending')),
      call(1, 'write_file', { path: DEMO_NOTES_FILE, content }),
    ];
  }
  const write = lastResults(body).get('toolu_demo_1_1');
  const wrote = write !== undefined && !write.isError;
  return [
    call(0, 'update_tasks', tasks('completed', wrote ? 'completed' : 'skipped', 'completed')),
    call(1, 'complete_task', {
      summary: wrote
        ? `${DEMO_LABEL} Listed the workspace and wrote ${DEMO_NOTES_FILE} after your approval.`
        : `${DEMO_LABEL} Listed the workspace; ${DEMO_NOTES_FILE} was not written (${write?.text.slice(0, 120) ?? 'no result'}).`,
      status: wrote ? 'success' : 'partial',
      next_steps: 'Set ANTHROPIC_API_KEY and run `npm start` again for a real Claude run, or try `npx agentctl run general "..."`.',
    }),
  ];
}

export interface DemoModelServer {
  /** Give this to the worker as ANTHROPIC_BASE_URL. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the demo model on 127.0.0.1 (a free port unless given). `delayMs` paces the replies for
 * people watching. `host` serves it elsewhere, e.g. where workers in other network namespaces reach it.
 */
export function startDemoModelServer(options: { port?: number; delayMs?: number; host?: string } = {}): Promise<DemoModelServer> {
  const host = options.host ?? '127.0.0.1';
  const delayMs = options.delayMs ?? 0;
  let served = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_demo_${++served}` });
      res.end(JSON.stringify(payload));
    };
    let body: Anthropic.MessageCreateParams;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Anthropic.MessageCreateParams;
    } catch {
      return send(400, { type: 'error', error: { type: 'invalid_request_error', message: 'demo model: body is not JSON' } });
    }
    const path = new URL(req.url ?? '/', 'http://demo').pathname;
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      return send(200, { input_tokens: Math.ceil(JSON.stringify(body.messages ?? []).length / 4) });
    }
    if (req.method !== 'POST' || path !== '/v1/messages' || !Array.isArray(body.messages)) {
      return send(404, { type: 'error', error: { type: 'not_found_error', message: `demo model: no ${req.method} ${path}` } });
    }
    const content = demoReply(body).map((b) => (b.type === 'text' ? { ...b, citations: null } : b));
    const message = {
      id: `msg_demo_${served}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), output_tokens: Math.ceil(JSON.stringify(content).length / 4), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    // The worker streams every model call; the demo text arrives in small pieces, so it reads as live output.
    if (body.stream) return sendMessageAsSse(res, message, { delayMs, chunks: { chars: 12, delayMs: 15 }, requestId: `req_demo_${++served}` });
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    send(200, message);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        baseUrl: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
