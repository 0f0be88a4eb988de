import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolResult } from '../../../src/contract/tool-result';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { DirectoryConversationStore, MemoryConversationStore } from '../../../src/runtime/conversation/conversation-store';
import { PostgresConversationStore } from '../../../src/runtime/conversation/postgres-conversation-store';
import { startPostgres, type PrivatePostgres } from '../../../scripts/cluster/postgres';
import { ATTACHMENT_LIMITS, ATTACHMENT_LINE, keepAttachments, withAttachments } from '../../../src/runtime/conversation/tool-attachments';
import { defineTool, type Tool } from '../../../src/runtime/tools/tool-definition';
import { toolResultsIn, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, text, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const resultMessage = (content: string): Anthropic.MessageParam => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] });

describe('tool attachments', () => {
  // A private PostgreSQL (as in postgres-conversation-store.test.ts), so all three stores are checked.
  let postgres: PrivatePostgres | undefined;
  const closing: PostgresConversationStore[] = [];
  beforeAll(async () => {
    postgres = await startPostgres({ host: '127.0.0.1' });
    await postgres.createDatabase('attachments');
  });
  afterAll(async () => {
    await Promise.all(closing.map((store) => store.close()));
    await postgres?.stop();
  });

  it.each([
    ['memory', async () => new MemoryConversationStore()],
    ['directory', async () => new DirectoryConversationStore(await mkdtemp(path.join(tmpdir(), 'attachments-')))],
    ['PostgreSQL', async () => {
      const store = new PostgresConversationStore(postgres!.url('attachments'));
      closing.push(store);
      await store.prepare();
      return store;
    }],
  ])('keeps a result\'s images in the %s store, gives the workflow a line instead, and puts them back into the tool_result', async (_name, makeStore) => {
    const store = await makeStore();
    const kept = await keepAttachments(store, 'run-1', 'toolu_1', { ...ToolResult.success('a screenshot'), content: [{ type: 'image', mediaType: 'image/png', data: PNG }] });
    expect(kept).toEqual(ToolResult.success('a screenshot\n[attached: image/png image, 70 bytes]'));
    const [message] = await withAttachments([resultMessage(kept.output)], store, 'run-1');
    expect(message!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: kept.output }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] },
    ]);
    // Another run's attachments are not this one's; a run that lost them is told so.
    const [elsewhere] = await withAttachments([resultMessage(kept.output)], store, 'run-2');
    expect(elsewhere!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: `${kept.output}\n(the attachments are no longer available on this worker)` }] },
    ]);
    await store.deleteRun('run-1');
    const [deleted] = await withAttachments([resultMessage(kept.output)], store, 'run-1');
    expect(JSON.stringify(deleted)).toContain('no longer available');
  });

  it('leaves results without attachments as they are, and does not attach what is over the limits', async () => {
    const store = new MemoryConversationStore();
    const plain = [resultMessage('just text'), { role: 'assistant' as const, content: 'fine' }];
    expect(await withAttachments(plain, store, 'run-1')).toEqual(plain);
    const huge = Buffer.alloc(ATTACHMENT_LIMITS.maxBytes + 1).toString('base64');
    const kept = await keepAttachments(store, 'run-1', 'toolu_2', { ...ToolResult.success(''), content: [{ type: 'image', mediaType: 'image/png', data: huge }] });
    expect(kept.output).toBe(`[not attached: image/png image, ${ATTACHMENT_LIMITS.maxBytes + 1} bytes, over the ${ATTACHMENT_LIMITS.maxBytes} byte limit]`);
    expect(await store.load('attachments:run-1:toolu_2')).toBeUndefined();
  });
});

describe('withAttachments on a growing conversation', () => {
  // Issue 37: the model call no longer copies every user message of the conversation on every call.
  const turn = (i: number, output: string): Anthropic.MessageParam[] => [
    { role: 'assistant', content: [{ type: 'text', text: `step ${i}` }, { type: 'tool_use', id: `toolu_${i}`, name: 'shot', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: output }, { type: 'text', text: `note ${i}` }] },
  ];

  it('hands back the very messages when no result names an attachment', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'the task' }, ...turn(0, 'plain'), ...turn(1, 'also plain')];
    const copy = structuredClone(messages);
    const out = await withAttachments(messages, new MemoryConversationStore(), 'run-1');
    expect(out).toBe(messages);
    expect(messages).toEqual(copy);
  });

  it('puts attachments back into the results that name them, as before, and leaves the rest and the input untouched', async () => {
    const store = new MemoryConversationStore();
    const kept = await keepAttachments(store, 'run-1', 'toolu_1', { ...ToolResult.success('a screenshot'), content: [{ type: 'image', mediaType: 'image/png', data: PNG }] });
    const lost = `gone\n${ATTACHMENT_LINE}image/png image, 70 bytes]`;
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'the task' }, ...turn(0, 'plain'), ...turn(1, kept.output), ...turn(2, 'plain'), ...turn(3, lost)];
    const copy = structuredClone(messages);
    const out = await withAttachments(messages, store, 'run-1');
    expect(messages).toEqual(copy);
    expect(out).toHaveLength(messages.length);
    // What the model gets, built the way it always was: the named results with their blocks, every other message as it is.
    const expected = copy.map((message, i) => {
      if (i === 4) return { ...message, content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: kept.output }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] }, { type: 'text', text: 'note 1' }] };
      if (i === 8) return { ...message, content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: [{ type: 'text', text: `${lost}\n(the attachments are no longer available on this worker)` }] }, { type: 'text', text: 'note 3' }] };
      return message;
    });
    expect(out).toEqual(expected);
    for (const i of [0, 1, 2, 3, 5, 6, 7]) expect(out[i]).toBe(messages[i]);
  });
});

describe('tool attachments in a run', () => {
  const bed = useAgentTestbed();

  it("shows a user tool's PDF and image to the model on every later turn, while the workflow history stays small", async () => {
    const task = uniqueId('attachments');
    // 300 KB of image: were it inline, the history would carry it in the activity result and the next call's input.
    const screenshot = randomBytes(300 * 1024).toString('base64');
    const pdf = Buffer.from('%PDF-1.4\n% a tiny document\n').toString('base64');
    const capture = defineTool({
      name: 'capture',
      description: 'Takes a screenshot and prints the page.',
      scope: 'read',
      inputSchema: z.object({}),
      execute: async () => ({ ...ToolResult.success('captured'), content: [{ type: 'image', mediaType: 'image/png', data: screenshot }, { type: 'document', mediaType: 'application/pdf', data: pdf, title: 'page.pdf' }] }),
    });
    const agents = [{ ...builtinAgents[0]!, tools: ['capture'] }];
    bed.fake.script(task, [reply(toolCall('capture', {})), reply(text('Looking at it.')), reply(toolCall('complete_task', { summary: 'seen', status: 'success', next_steps: 'none' }))]);
    const history = await withAgentWorker({ ...bed.harness(), agents, tools: [capture as Tool] }, async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      expect((await handle.result()).status).toBe('completed');
      return handle.fetchHistory();
    });
    const requests = bed.fake.requestsFor(task);
    expect(requests).toHaveLength(3);
    const attached = [
      { type: 'text', text: 'captured\n[attached: image/png image, 307200 bytes]\n[attached: application/pdf document "page.pdf", 27 bytes]' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: screenshot } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf }, title: 'page.pdf' },
    ];
    expect(toolResultsIn(requests[1])).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_0_0', content: attached }]);
    // The turn after still has them: the conversation is rebuilt with them on every call.
    const later = requests[2]!.body.messages[2]!.content as unknown as { content: unknown }[];
    expect(later[0]!.content).toEqual(attached);
    expect(JSON.stringify(history).length).toBeLessThan(100 * 1024);
  });
});
