// What the real Messages API checks of the blocks it sent when they come back, for the fake to answer
// with the same 400s: a thinking or redacted_thinking block changed, dropped or moved from the start of
// its assistant turn, or a server tool call parted from its result. The fake records what it sent
// with each reply (by the ids of the reply's tool calls), and checks every later request against it.
import type { MessagesBody } from './scripted-steps';

type Block = { type: string; [key: string]: unknown };

const isThinking = (b: Block) => b.type === 'thinking' || b.type === 'redacted_thinking';
/** Blocks the API owns and wants back verbatim (everything but text, tool calls and tool results). */
const isApiBlock = (b: Block) => isThinking(b) || b.type === 'server_tool_use' || b.type === 'container_upload' || (b.type !== 'tool_result' && b.type.endsWith('_tool_result'));

/** JSON with sorted keys: a store (PostgreSQL jsonb) may reorder keys, which the API does not mind. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export class ThinkingLedger {
  /** By `<script>|<id>` of each tool_use or server_tool_use of a reply: that reply's API blocks, in order. */
  private readonly sent = new Map<string, { api: string[]; thinking: number }>();
  private readonly signatures = new Map<string, string>();
  private readonly redacted = new Set<string>();

  /**
   * Records a reply the fake sends. A reply to a request that ends with a paused turn (`pause_turn`)
   * continues that turn: `paused` is the turn as sent back, and the whole turn is what must come back.
   */
  issue(script: string, reply: Block[], paused: Block[] = []): void {
    const content = [...paused, ...reply];
    const api = content.filter(isApiBlock).map(canonical);
    if (api.length === 0) return;
    // The thinking that must open the turn: its first reply's (a continuation's own thinking follows the paused blocks).
    const opening = paused.length > 0 ? paused : reply;
    const thinking = opening.filter(isThinking).length;
    for (const block of content) {
      if (block.type === 'thinking') this.signatures.set(String(block.signature), canonical(block));
      if (block.type === 'redacted_thinking') this.redacted.add(String(block.data));
      if (block.type === 'tool_use' || block.type === 'server_tool_use') this.sent.set(`${script}|${String(block.id)}`, { api, thinking });
    }
  }

  /** The API's 400 message for this request, or undefined when its blocks are as sent. */
  check(script: string, body: MessagesBody): string | undefined {
    for (const [m, message] of (body.messages ?? []).entries()) {
      if (message.role !== 'assistant' || typeof message.content === 'string') continue;
      const blocks = message.content as unknown as Block[];
      const at = (i: number) => `messages.${m}.content.${i}`;
      for (const [i, block] of blocks.entries()) {
        if (block.type === 'thinking' && this.signatures.get(String(block.signature)) !== canonical(block)) {
          return `${at(i)}: Invalid \`signature\` in \`thinking\` block (the block was changed)`;
        }
        if (block.type === 'redacted_thinking' && !this.redacted.has(String(block.data))) return `${at(i)}: Invalid \`data\` in \`redacted_thinking\` block`;
        // A paused turn sent back to be continued may end with a server tool call the API has yet to answer.
        const continued = m === (body.messages ?? []).length - 1;
        if (block.type === 'server_tool_use' && !continued && !blocks.slice(i + 1).some((b) => b.tool_use_id === block.id)) {
          return `${at(i)}: \`server_tool_use\` ids were found without a result block after them: ${String(block.id)}`;
        }
      }
      const ids = blocks.filter((b) => b.type === 'tool_use' || b.type === 'server_tool_use').map((b) => `${script}|${String(b.id)}`);
      const expected = ids.map((id) => this.sent.get(id)).find((x) => x !== undefined);
      if (!expected) continue;
      const got = blocks.filter(isApiBlock).map(canonical);
      if (got.join('\n') !== expected.api.join('\n')) {
        return `messages.${m}: the assistant turn's thinking and server tool blocks must be passed back unmodified and in their original order (expected ${expected.api.length} blocks, got ${got.length}${got.length === expected.api.length ? ', changed or reordered' : ''})`;
      }
      if (!blocks.slice(0, expected.thinking).every(isThinking)) {
        return `messages.${m}.content.0: Expected \`thinking\` or \`redacted_thinking\`, but found \`${blocks[0]?.type}\`. When \`thinking\` is enabled, an assistant message must start with its thinking blocks`;
      }
    }
    return undefined;
  }
}
