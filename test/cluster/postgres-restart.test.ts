// The private PostgreSQL of the cluster stopped and started again, as the drill does for 20 s: the
// data stays, and a worker's conversation store that was connected throughout says clearly (and
// retryably) that the database is down, then works again on the same pool once it is back.
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationStoreUnavailableError } from '../../src/contract/errors';
import { PostgresConversationStore } from '../../src/runtime/conversation/postgres-conversation-store';
import { startPostgres, type PrivatePostgres } from '../../scripts/cluster/postgres';

describe('a restarted private PostgreSQL', () => {
  let postgres: PrivatePostgres;
  let store: PostgresConversationStore;
  const pids: number[] = [];

  beforeAll(async () => {
    postgres = await startPostgres({ host: '127.0.0.1', onStart: (pid) => void pids.push(pid) });
    await postgres.createDatabase('durable_agent');
    // Short connection timeout: the outage below should fail fast, as the worker's store is retried by Temporal.
    store = new PostgresConversationStore(postgres.url('durable_agent'), { connectionTimeoutMillis: 2_000 });
  });
  afterAll(async () => {
    await store?.close();
    await postgres?.stop();
  });

  it('keeps its data, and the store reports the outage as unavailable and recovers on the same pool', async () => {
    const conversation = { messages: [{ role: 'user' as const, content: 'before the restart' }], tag: 't1' };
    await store.save('conv', conversation, 'run-1');

    await postgres.shutDown();
    expect(postgres.process.isRunning()).toBe(false);
    const direct = new Client({ connectionString: postgres.url('durable_agent'), connectionTimeoutMillis: 2_000 });
    await expect(direct.connect()).rejects.toThrow(/ECONNREFUSED/);
    const failure = await store.load('conv', 'run-1', 't1').catch((error: unknown) => error);
    // Retryable (the model activity is retried until the database is back) and naming the database.
    expect(failure).toBeInstanceOf(ConversationStoreUnavailableError);
    expect((failure as Error).message).toMatch(/could not load a conversation: .*ECONNREFUSED|terminat|Connection/);
    await expect(postgres.startAgain()).resolves.toBeUndefined();
    await expect(postgres.startAgain()).rejects.toThrow(/already running/);

    expect(await store.load('conv', 'run-1', 't1')).toEqual(conversation);
    expect(pids).toHaveLength(2);
    expect(pids[1]).not.toBe(pids[0]);
    expect(postgres.process.pid).toBe(pids[1]);
  });
});
