import type { ConversationMessage } from '../../contract/messages';

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
