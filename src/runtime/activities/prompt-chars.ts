import type { ConversationMessage } from '../../contract/messages';

/**
 * Each message's JSON length, remembered by identity. The memory store hands back the same message
 * objects on every model call of a run (the activity saves them and nothing edits a stored message:
 * compaction and the cache breakpoints make copies), so a call stringifies only the messages new
 * since the last one instead of the whole conversation: with 5 KB tool outputs that was 0.4–0.8 ms
 * of worker CPU per call (bench:cpu). A store that parses its messages anew measures them anew.
 */
const messageChars = new WeakMap<ConversationMessage, number>();

/**
 * `JSON.stringify(messages).length`, exactly (brackets and commas included), which is what the
 * machine compares its own count against (`lastPrompt`, src/core/machine/compaction-plan.ts).
 */
export function promptCharsOf(messages: readonly ConversationMessage[]): number {
  let chars = 2 + Math.max(0, messages.length - 1);
  for (const message of messages) {
    let size = messageChars.get(message);
    if (size === undefined) messageChars.set(message, (size = JSON.stringify(message).length));
    chars += size;
  }
  return chars;
}
