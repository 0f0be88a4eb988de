import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolResult } from '../../contract/tool-result';

type ContentBlock = CallToolResult['content'][number];

/** One content block as text for the model: text as it is, everything else described. */
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
      return `[resource link: ${block.uri}${block.description ? ` (${block.description})` : ''}]`;
    default:
      return `[${(block as { type: string }).type} content, not shown]`;
  }
}

/**
 * An MCP tool result as the runtime's ToolResult. A result the server flagged `isError` is an error
 * result the model can act on; structured content is used when the server sent no text.
 */
export function toToolResult(result: CallToolResult): ToolResult {
  const blocks = result.content ?? [];
  let text = blocks.map(blockText).join('\n');
  if (!text && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (!text) text = result.isError ? '(the tool failed without saying why)' : '(no output)';
  return result.isError ? ToolResult.error(text) : ToolResult.success(text);
}
