import { serverToolUses, type ConversationMessage } from '../../contract/messages';
import { pushBounded, StateLimits, type RunState } from './run-state';
import type { TransitionContext } from './transition-context';

/** What status, audit and handlers say a server tool call was, instead of a tool output. */
export const RAN_BY_API = 'ran by the API';

/** The result block of server tool call `id` in `message`; its `content.type` ends in `_error` when the call failed. */
function failed(message: ConversationMessage, id: string): boolean {
  if (typeof message.content === 'string') return false;
  const result = message.content.find((b) => 'tool_use_id' in b && b.tool_use_id === id && b.type !== 'tool_result');
  const content = result && 'content' in result ? (result.content as { type?: unknown } | null) : null;
  return typeof content?.type === 'string' && content.type.endsWith('_error');
}

/**
 * Records the server tool calls of a reply (web search, web fetch, code execution): the API ran
 * them within the reply, so they are never turn calls for the worker, never ask anyone, and count
 * against no approval. They appear in the recent calls (status) as "ran by the API", and as a
 * `toolEnded` event with `ranBy: 'api'`, which the audit log records as such.
 */
export function recordServerTools(state: RunState, message: ConversationMessage, ctx: TransitionContext): void {
  for (const call of serverToolUses(message)) {
    const success = !failed(message, call.id);
    const summary = `${call.name} ${JSON.stringify(call.input)}`.slice(0, 180) + ` (${RAN_BY_API})`;
    pushBounded(
      state.recentToolCalls,
      { iteration: state.iteration, callId: call.id, tool: call.name, summary, outcome: success ? 'success' : 'error', ranBy: 'api' },
      StateLimits.recentToolCalls,
    );
    ctx.emit(state, 'toolEnded', { tool: call.name, callId: call.id, success, durationMs: 0, arguments: call.input, output: RAN_BY_API, ranBy: 'api' }, `server-${call.id}`);
  }
}
