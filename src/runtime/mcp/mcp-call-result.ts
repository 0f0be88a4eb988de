import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolContentPartSchema, ToolResult, type ToolContentPart } from '../../contract/tool-result';
import type { McpCallToolResult } from './mcp-connection';

type ContentBlock = CallToolResult['content'][number];

/**
 * An image or PDF the model can see, when the block is one the Messages API takes in a tool result
 * (PNG, JPEG, GIF, WebP images; PDF documents); undefined otherwise.
 */
function partOf(block: ContentBlock): ToolContentPart | undefined {
  if (block.type === 'image') {
    const part = ToolContentPartSchema.safeParse({ type: 'image', mediaType: block.mimeType, data: block.data });
    return part.success ? part.data : undefined;
  }
  if (block.type === 'resource' && 'blob' in block.resource && block.resource.mimeType === 'application/pdf') {
    return { type: 'document', mediaType: 'application/pdf', data: block.resource.blob, title: block.resource.uri };
  }
  return undefined;
}

/** One content block as text for the model: text as it is, links as links, what it cannot see described. */
function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} (${block.mimeType}), ${Math.round((block.data.length * 3) / 4)} bytes, not shown]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri} (${block.resource.mimeType ?? 'binary'}), not shown]`;
    case 'resource_link':
      return `[resource link: ${block.uri}${block.name ? ` "${block.name}"` : ''}${block.mimeType ? ` (${block.mimeType})` : ''}${block.description ? `: ${block.description}` : ''}]`;
    default:
      return `[${(block as { type: string }).type} content, not shown]`;
  }
}

/**
 * An MCP tool result as the runtime's ToolResult. Images and PDFs become content parts the model
 * sees inside its tool_result (tool-attachments.ts keeps them out of the workflow's history); text,
 * text resources and resource links become text. Structured content is added as JSON when the
 * server sent no text that already carries it. A result the server flagged `isError` is an error
 * result the model can act on.
 */
export function toToolResult(called: McpCallToolResult): ToolResult {
  // The SDK's callTool parsed the answer with the spec's schema, so its blocks have the spec's types.
  const result = called as CallToolResult;
  const blocks = result.content ?? [];
  const parts: ToolContentPart[] = [];
  const lines: string[] = [];
  for (const block of blocks) {
    const part = partOf(block);
    if (part) parts.push(part);
    else lines.push(blockText(block));
  }
  let text = lines.join('\n');
  if (result.structuredContent !== undefined && !blocks.some((b) => b.type === 'text')) text = [text, JSON.stringify(result.structuredContent)].filter(Boolean).join('\n');
  if (!text && parts.length === 0) text = result.isError ? '(the tool failed without saying why)' : '(no output)';
  const base = result.isError ? ToolResult.error(text) : ToolResult.success(text);
  return parts.length > 0 ? { ...base, content: parts } : base;
}
