import type Anthropic from '@anthropic-ai/sdk';
import { ToolContentPartSchema, type ToolContentPart, type ToolResult } from '../../contract/tool-result';
import type { ConversationStore } from './conversation-store-types';

/**
 * Images and documents a tool returns (ToolResult.content) reach the model inside its `tool_result`,
 * but never the workflow's history: base64 screenshots there would grow every run by megabytes and
 * be replayed with it. So the tool activity keeps them in the conversation store, under the call's
 * id and owned by the run (deleted with its conversation when it closes), and hands the workflow a
 * text line per attachment. The model activity adds them back to the request each turn. A store
 * that lost them (another worker's memory store, an evicted entry) leaves the line and a note, so the
 * model knows what it can no longer see.
 */

/** Opens each attachment line; the model activity looks attachments up only for results that have one. */
export const ATTACHMENT_LINE = '[attached: ';

/** The API refuses larger images; PDFs count against the request's size. */
export const ATTACHMENT_LIMITS = { maxBytes: 5 * 1024 * 1024, maxParts: 20 } as const;

/** Where a call's attachments are kept (tagged with the call id, owned by the run). */
export const attachmentKey = (owner: string, callId: string) => `attachments:${owner}:${callId}`;
const bytesOf = (part: ToolContentPart) => Buffer.byteLength(part.data, 'base64');
const label = (part: ToolContentPart) => `${part.mediaType} ${part.type}${part.type === 'document' && part.title ? ` "${part.title}"` : ''}, ${bytesOf(part)} bytes`;

/**
 * Keeps a result's attachments in the store and returns the result the workflow gets: `output` with
 * one line per attachment, no `content`. Attachments over the limits become a line saying so.
 */
export async function keepAttachments(store: ConversationStore, owner: string, callId: string, result: ToolResult): Promise<ToolResult> {
  const { content, ...rest } = result;
  if (!content?.length) return rest;
  const kept: ToolContentPart[] = [];
  const lines: string[] = [];
  for (const part of content.map((p) => ToolContentPartSchema.parse(p))) {
    if (bytesOf(part) > ATTACHMENT_LIMITS.maxBytes) lines.push(`[not attached: ${label(part)}, over the ${ATTACHMENT_LIMITS.maxBytes} byte limit]`);
    else if (kept.length >= ATTACHMENT_LIMITS.maxParts) lines.push(`[not attached: ${label(part)}, over ${ATTACHMENT_LIMITS.maxParts} attachments]`);
    else {
      kept.push(part);
      lines.push(`${ATTACHMENT_LINE}${label(part)}]`);
    }
  }
  // The store keeps conversations; the attachments travel as one text block of JSON, so every
  // store (memory, directory, PostgreSQL) holds them without a schema of its own.
  if (kept.length > 0) await store.save(attachmentKey(owner, callId), { messages: [{ role: 'user', content: [{ type: 'text', text: JSON.stringify(kept) }] }], tag: callId }, owner);
  return { ...rest, output: [rest.output, ...lines].filter(Boolean).join('\n') };
}

function toApiBlock(part: ToolContentPart): Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam {
  if (part.type === 'image') return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
  return { type: 'document', source: { type: 'base64', media_type: part.mediaType, data: part.data }, ...(part.title ? { title: part.title } : {}) };
}

async function loadAttachments(store: ConversationStore, owner: string, callId: string): Promise<ToolContentPart[] | undefined> {
  const stored = await store.load(attachmentKey(owner, callId), owner, callId);
  const block = Array.isArray(stored?.messages[0]?.content) ? stored.messages[0].content[0] : undefined;
  if (block?.type !== 'text') return undefined;
  const parsed = ToolContentPartSchema.array().safeParse(JSON.parse(block.text));
  return parsed.success ? parsed.data : undefined;
}

/** A `tool_result` whose text names attachments kept in the store. */
function carriesAttachments(block: Anthropic.ContentBlockParam): block is Anthropic.ToolResultBlockParam & { content: string } {
  return block.type === 'tool_result' && typeof block.content === 'string' && block.content.includes(ATTACHMENT_LINE);
}

/**
 * The request's messages with each `tool_result` that has attachment lines carrying them as image
 * and document blocks after its text (the shape the Messages API takes in a `tool_result`). Only the
 * messages that have such a result are copied; the others (every message of a run whose tools return
 * none) are handed back as they are, not copied on every model call of a growing conversation.
 */
export async function withAttachments(messages: Anthropic.MessageParam[], store: ConversationStore, owner: string | undefined): Promise<Anthropic.MessageParam[]> {
  if (!owner) return messages;
  let out: Anthropic.MessageParam[] | undefined;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    if (message.role !== 'user' || typeof message.content === 'string' || !message.content.some(carriesAttachments)) continue;
    const content: Anthropic.ContentBlockParam[] = [];
    for (const block of message.content) {
      if (!carriesAttachments(block)) {
        content.push(block);
        continue;
      }
      const parts = await loadAttachments(store, owner, block.tool_use_id);
      const text = parts ? block.content : `${block.content}\n(the attachments are no longer available on this worker)`;
      content.push({ ...block, content: [{ type: 'text', text }, ...(parts ?? []).map(toApiBlock)] });
    }
    out ??= [...messages];
    out[index] = { ...message, content };
  }
  return out ?? messages;
}
