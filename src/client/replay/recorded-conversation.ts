import type { ConversationRef } from '../../contract/conversation-ref';
import type { ConversationMessage } from '../../contract/messages';

/** Where a recorded model call's prompt started: messages a conversation store kept, which the history does not carry. */
export interface StoredPrefix {
  key: string;
  owner?: string;
  tag?: string;
  baseCount: number;
}

/** Looks up a stored conversation the history does not carry (a CLI's AGENT_CONVERSATION_STORE, an export's bodies). */
export type StoredConversationLookup = (prefix: StoredPrefix) => Promise<ConversationMessage[] | undefined>;

/**
 * The prompts of a run's model calls, rebuilt from its history the way the model activity rebuilt
 * them (activities/conversation-sync.ts): a call hands over "the first `baseCount` messages kept under
 * `key` (written by the call that reported `tag`), then `append`", and each call keeps its prompt and
 * its reply under the key. Replaying those writes in order gives every prompt exactly, with no store;
 * only a prompt that starts from messages no recorded call wrote (a store entry of another run) needs
 * `lookup`, and comes back `undefined` with what was missing when that has nothing either.
 */
export class RecordedConversation {
  private readonly kept = new Map<string, { messages: ConversationMessage[]; tag: string }>();

  constructor(private readonly lookup?: StoredConversationLookup) {}

  async prompt(ref: ConversationRef): Promise<{ messages: ConversationMessage[] } | { missing: StoredPrefix }> {
    const append = ref.append as ConversationMessage[];
    if (ref.baseCount === 0) return { messages: append };
    const kept = this.kept.get(ref.key);
    if (kept && kept.tag === ref.tag && kept.messages.length >= ref.baseCount) return { messages: [...kept.messages.slice(0, ref.baseCount), ...append] };
    const prefix: StoredPrefix = { key: ref.key, ...(ref.owner ? { owner: ref.owner } : {}), ...(ref.tag ? { tag: ref.tag } : {}), baseCount: ref.baseCount };
    const found = await this.lookup?.(prefix);
    if (found && found.length >= ref.baseCount) return { messages: [...found.slice(0, ref.baseCount), ...append] };
    return { missing: prefix };
  }

  /** What the call kept after replying: its prompt (a continued paused turn replaces the last message) and its reply. */
  keep(key: string, prompt: ConversationMessage[], reply: ConversationMessage, tag: string, continued: boolean): void {
    this.kept.set(key, { messages: [...(continued ? prompt.slice(0, -1) : prompt), reply], tag });
  }
}
