import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { ConversationStoreConfigError } from '../errors';
import type { ConversationMessage } from './messages';
import { isPostgresUrl, PostgresConversationStore, redactUrl } from './postgres-conversation-store';

/**
 * Where model activities keep a run's conversation between calls, so the workflow sends only what
 * changed instead of the whole conversation on every turn (which makes history grow with the square
 * of the run length). The store is a cache, not the source of truth: the workflow holds the
 * conversation, and when a store does not have what the workflow expects (another machine, a restart)
 * the activity says so and the workflow sends everything once. Entries belong to a run (`owner`, its
 * workflow id) and are deleted when the run closes.
 */
export interface ConversationStore {
  /**
   * The conversation kept under `key`. With `tag`, a store that keeps several versions returns the one
   * that write produced (see PostgresConversationStore); the others return their latest and let the
   * caller compare tags.
   */
  load(key: string, owner?: string, tag?: string): Promise<StoredConversation | undefined>;
  save(key: string, conversation: StoredConversation, owner?: string): Promise<void>;
  /** Forgets every entry of a run. */
  deleteRun(owner: string): Promise<void>;
  /** Checks the store can be used (and creates what it needs) before the worker polls; optional. */
  prepare?(): Promise<void>;
  /** Releases connections when the worker stops; optional. */
  close?(): Promise<void>;
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
