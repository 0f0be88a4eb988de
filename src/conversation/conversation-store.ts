import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import type { ConversationMessage } from './messages';

/**
 * Where model activities keep a run's conversation between calls, so the workflow sends only what
 * changed instead of the whole conversation on every turn (which makes history grow with the square
 * of the run length). The store is a cache, not the source of truth: the workflow holds the
 * conversation, and when a store does not have what the workflow expects (another machine, a restart)
 * the activity says so and the workflow sends everything once.
 */
export interface ConversationStore {
  load(key: string): Promise<StoredConversation | undefined>;
  save(key: string, conversation: StoredConversation): Promise<void>;
}

/**
 * A stored conversation and the tag of the write that produced it. The workflow remembers the tag
 * its last successful model call reported, so a late write by an abandoned attempt (one that timed
 * out but finished anyway) is detected as a miss instead of silently replacing the real reply.
 */
export interface StoredConversation {
  messages: ConversationMessage[];
  tag: string;
}

/** A per-process LRU: correct everywhere, efficient when one worker (or a sticky one) serves a run. */
export class MemoryConversationStore implements ConversationStore {
  private readonly entries = new Map<string, StoredConversation>();
  constructor(private readonly capacity = 500) {}

  async load(key: string) {
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  async save(key: string, conversation: StoredConversation) {
    this.entries.delete(key);
    this.entries.set(key, conversation);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}

/** A folder of JSON files: share it (a network volume) between workers on several machines. */
export class DirectoryConversationStore implements ConversationStore {
  constructor(private readonly dir: string) {}

  private file(key: string) {
    return path.join(this.dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  }

  async load(key: string) {
    try {
      return JSON.parse(await readFile(this.file(key), 'utf8')) as StoredConversation;
    } catch {
      return undefined;
    }
  }

  async save(key: string, conversation: StoredConversation) {
    await mkdir(this.dir, { recursive: true });
    const target = this.file(key);
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, JSON.stringify(conversation));
    await rename(temp, target);
  }
}

/** `AGENT_CONVERSATION_STORE`: `memory` (default) or `dir:/path/to/shared/folder`. */
export function conversationStoreFromEnv(value = process.env.AGENT_CONVERSATION_STORE): ConversationStore {
  if (value?.startsWith('dir:')) return new DirectoryConversationStore(value.slice(4));
  return new MemoryConversationStore();
}
