import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { ConversationStoreConfigError } from '../../contract/errors';
import type { ConversationStore, StoredConversation } from './conversation-store-types';
import { isPostgresUrl, PostgresConversationStore, redactUrl } from './postgres-conversation-store';

// The interfaces live in their own file so the Postgres store can implement them without importing
// this file, which picks a store and so imports it.
export type { ConversationStore, StoredConversation } from './conversation-store-types';

/** A per-process LRU: correct everywhere, efficient when one worker (or a sticky one) serves a run. */
export class MemoryConversationStore implements ConversationStore {
  private readonly entries = new Map<string, StoredConversation & { owner?: string }>();
  constructor(private readonly capacity = 500) {}

  async load(key: string) {
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  async save(key: string, conversation: StoredConversation, owner?: string) {
    this.entries.delete(key);
    this.entries.set(key, { ...conversation, owner });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  async deleteRun(owner: string) {
    for (const [key, entry] of this.entries) if (entry.owner === owner) this.entries.delete(key);
  }

  /** How many conversations are kept (for tests). */
  get size(): number {
    return this.entries.size;
  }
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A folder of JSON files, one folder per run: share it (a network volume) between workers on several machines. */
export class DirectoryConversationStore implements ConversationStore {
  constructor(readonly dir: string) {}

  private file(key: string, owner?: string) {
    return owner === undefined ? path.join(this.dir, `${sha(key)}.json`) : path.join(this.dir, sha(owner), `${sha(key)}.json`);
  }

  async load(key: string, owner?: string) {
    try {
      return JSON.parse(await readFile(this.file(key, owner), 'utf8')) as StoredConversation;
    } catch {
      return undefined;
    }
  }

  async save(key: string, conversation: StoredConversation, owner?: string) {
    const target = this.file(key, owner);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, JSON.stringify(conversation));
    await rename(temp, target);
  }

  async deleteRun(owner: string) {
    await rm(path.join(this.dir, sha(owner)), { recursive: true, force: true });
  }
}

/**
 * `AGENT_CONVERSATION_STORE`: `memory` (the default), `dir:/path/to/shared/folder` or a PostgreSQL
 * connection URL (`postgres://user:password@host:5432/database`). Anything else is refused with what
 * is accepted, rather than silently falling back to memory.
 */
export function conversationStoreFromEnv(value: string | undefined): ConversationStore {
  const setting = value?.trim() ?? '';
  if (setting === '' || setting === 'memory') return new MemoryConversationStore();
  if (setting.startsWith('dir:') && setting.length > 4) return new DirectoryConversationStore(path.resolve(setting.slice(4)));
  if (isPostgresUrl(setting)) return new PostgresConversationStore(setting);
  // The value may be a URL with a password in it: quote only its scheme.
  throw new ConversationStoreConfigError(
    `AGENT_CONVERSATION_STORE="${redactUrl(value ?? '')}" is not a store this worker knows. Use "memory" (one worker, the default), "dir:/shared/folder" (a folder every worker can reach) or "postgres://user:password@host:5432/database" (a database every worker can reach).`,
  );
}
