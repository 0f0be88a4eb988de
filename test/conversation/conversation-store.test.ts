import { describe, expect, it } from 'vitest';
import { conversationStoreFromEnv, DirectoryConversationStore, MemoryConversationStore } from '../../src/conversation/conversation-store';
import { PostgresConversationStore } from '../../src/conversation/postgres-conversation-store';
import { ConversationStoreConfigError } from '../../src/errors';

describe('conversationStoreFromEnv', () => {
  it('keeps conversations in memory unless told otherwise', () => {
    expect(conversationStoreFromEnv(undefined)).toBeInstanceOf(MemoryConversationStore);
    expect(conversationStoreFromEnv('memory')).toBeInstanceOf(MemoryConversationStore);
  });

  it('uses a shared folder for dir: and PostgreSQL for a postgres:// or postgresql:// URL', async () => {
    expect(conversationStoreFromEnv('dir:/srv/conversations')).toBeInstanceOf(DirectoryConversationStore);
    for (const url of ['postgres://u:p@db:5432/agents', 'postgresql://u:p@db/agents']) {
      const store = conversationStoreFromEnv(url);
      expect(store).toBeInstanceOf(PostgresConversationStore);
      // Nothing connects until the store is used.
      await store.close?.();
    }
  });

  it('refuses anything else, naming what it accepts, without echoing a password', () => {
    expect(() => conversationStoreFromEnv('redis://user:hunter2@cache:6379')).toThrow(ConversationStoreConfigError);
    expect(() => conversationStoreFromEnv('redis://user:hunter2@cache:6379')).toThrow(/"redis:\/\/user:\*\*\*@cache:6379".*memory.*dir:.*postgres:\/\//);
  });
});
