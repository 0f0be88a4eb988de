import { Pool, type PoolConfig } from 'pg';
import { z } from 'zod';
import { ConversationStoreUnavailableError } from '../../contract/errors';
import type { ConversationStore, StoredConversation } from './conversation-store-types';
import { ConversationMessageSchema } from '../../contract/conversation-ref';

/**
 * The table's name carries its format version. Its rows are a cache (the workflow holds the
 * conversation), so a future format gets a new table instead of a migration, and the old one can
 * simply be dropped.
 */
export const CONVERSATION_TABLE = 'agent_conversations_v1';

// `json`, not `jsonb`: jsonb reorders object keys, and a model's prompt cache matches the exact text
// of what was sent before, tool inputs included.
const CREATE_TABLE = `
  CREATE TABLE IF NOT EXISTS ${CONVERSATION_TABLE} (
    owner text NOT NULL,
    key text NOT NULL,
    tag text NOT NULL,
    version bigint GENERATED ALWAYS AS IDENTITY,
    messages json NOT NULL,
    saved_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner, key, tag)
  )`;

// Several workers start at once, and concurrent CREATE TABLE IF NOT EXISTS can still collide on the
// catalog's unique index: one transaction-scoped advisory lock makes them take turns.
const CREATE_LOCK = `SELECT pg_advisory_xact_lock(hashtext('${CONVERSATION_TABLE}'))`;

const SAVE = `
  INSERT INTO ${CONVERSATION_TABLE} (owner, key, tag, messages) VALUES ($1, $2, $3, $4)
  ON CONFLICT (owner, key, tag) DO UPDATE SET messages = EXCLUDED.messages, saved_at = now()`;

// The workflow only ever moves forward: once it asks for the version `tag` wrote, no older version
// of that key will be asked for again, so they are deleted in the same round trip.
const LOAD_TAGGED = `
  WITH wanted AS (
    SELECT version, messages, tag FROM ${CONVERSATION_TABLE} WHERE owner = $1 AND key = $2 AND tag = $3
  ), pruned AS (
    DELETE FROM ${CONVERSATION_TABLE} WHERE owner = $1 AND key = $2 AND version < (SELECT version FROM wanted)
  )
  SELECT messages, tag FROM wanted`;

const LOAD_LATEST = `
  SELECT messages, tag FROM ${CONVERSATION_TABLE} WHERE owner = $1 AND key = $2 ORDER BY version DESC LIMIT 1`;

const DELETE_RUN = `DELETE FROM ${CONVERSATION_TABLE} WHERE owner = $1`;

const RowSchema = z.object({ messages: z.array(ConversationMessageSchema), tag: z.string() });

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL without its password, for messages and logs. */
export function redactUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:)[^@/?#]*@/i, '$1***@');
}

/**
 * Conversations in a PostgreSQL table every worker can reach, so a run's next model call finds its
 * conversation whichever host picks it up, with no shared filesystem.
 *
 * Unlike the memory and folder stores it keeps each version a model call wrote, keyed by its tag. A
 * worker that dies after saving its reply but before Temporal records the call would otherwise
 * leave the retry a version the workflow never saw: a store miss that makes the workflow resend the
 * whole conversation. Superseded versions are pruned as the run moves on, and `deleteRun` removes
 * the rest when it closes.
 *
 * Errors reaching the database are thrown as `ConversationStoreUnavailableError` (retryable): the
 * model activity is retried with Temporal's backoff until the database is back.
 */
export class PostgresConversationStore implements ConversationStore {
  private readonly pool: Pool;
  private tableReady: Promise<void> | undefined;

  constructor(
    readonly url: string,
    poolConfig: Omit<PoolConfig, 'connectionString'> = {},
  ) {
    // A worker runs up to 100 activities at once, but each holds a connection only for one short
    // statement; a few connections per worker keep the server's connection count low.
    this.pool = new Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000, ...poolConfig });
    // An idle connection the server dropped must not crash the worker; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  async prepare(): Promise<void> {
    await this.ensureTable();
  }

  async load(key: string, owner?: string, tag?: string): Promise<StoredConversation | undefined> {
    const result = await this.query('load a conversation', tag === undefined ? LOAD_LATEST : LOAD_TAGGED, tag === undefined ? [owner ?? '', key] : [owner ?? '', key, tag]);
    const row = result.rows[0];
    return row === undefined ? undefined : (RowSchema.parse(row) as StoredConversation);
  }

  async save(key: string, conversation: StoredConversation, owner?: string): Promise<void> {
    await this.query('save a conversation', SAVE, [owner ?? '', key, conversation.tag, JSON.stringify(conversation.messages)]);
  }

  async deleteRun(owner: string): Promise<void> {
    await this.query("delete a run's conversations", DELETE_RUN, [owner]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async query(what: string, sql: string, params: unknown[]) {
    await this.ensureTable();
    try {
      return await this.pool.query(sql, params);
    } catch (error) {
      throw this.unavailable(what, error);
    }
  }

  /** Creates the table once per process; a failed attempt is forgotten so the next call tries again. */
  private ensureTable(): Promise<void> {
    this.tableReady ??= this.createTable().catch((error: unknown) => {
      this.tableReady = undefined;
      throw error;
    });
    return this.tableReady;
  }

  private async createTable(): Promise<void> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw this.unavailable('connect', error);
    });
    try {
      await client.query('BEGIN');
      await client.query(CREATE_LOCK);
      await client.query(CREATE_TABLE);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.unavailable(`create the table ${CONVERSATION_TABLE}`, error);
    } finally {
      client.release();
    }
  }

  private unavailable(what: string, error: unknown): ConversationStoreUnavailableError {
    const reason = error instanceof Error ? error.message : String(error);
    return new ConversationStoreUnavailableError(`The PostgreSQL conversation store (${redactUrl(this.url)}) could not ${what}: ${reason}`, { cause: error });
  }
}
