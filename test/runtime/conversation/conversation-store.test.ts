// The conversation stores model activities keep between calls: the folder store compose uses
// (`AGENT_CONVERSATION_STORE=dir:...`), and how that setting is read, including a value it refuses.
// The PostgreSQL store has its own file (postgres-conversation-store.test.ts).
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationStoreFromEnv, DirectoryConversationStore, MemoryConversationStore } from '../../../src/runtime/conversation/conversation-store';
import { type StoredConversation } from '../../../src/runtime/conversation/conversation-store-types';
import { PostgresConversationStore } from '../../../src/runtime/conversation/postgres-conversation-store';
import { ConversationStoreConfigError } from '../../../src/contract/errors';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const conversation = (text: string, tag = 'tag-1'): StoredConversation => ({ messages: [{ role: 'user', content: text }], tag });
const tempDir = () => mkdtemp(path.join(tmpdir(), 'conv-store-'));

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('DirectoryConversationStore', () => {
  it('gives back what was saved, from another instance on the same folder (another worker)', async () => {
    const dir = await tempDir();
    await new DirectoryConversationStore(dir).save('run-1/main', conversation('hello'), 'run-1');
    expect(await new DirectoryConversationStore(dir).load('run-1/main', 'run-1')).toEqual(conversation('hello'));
  });

  it('reports a key it does not have (or has under another owner) as a miss, not an error', async () => {
    const store = new DirectoryConversationStore(await tempDir());
    await store.save('k', conversation('mine'), 'owner-a');
    expect(await store.load('never-saved', 'owner-a')).toBeUndefined();
    expect(await store.load('k', 'owner-b')).toBeUndefined();
    expect(await store.load('k')).toBeUndefined();
  });

  it('replaces an entry whole on save and leaves no temporary files behind', async () => {
    const dir = await tempDir();
    const store = new DirectoryConversationStore(dir);
    await store.save('k', conversation('first', 'tag-1'), 'run');
    await store.save('k', conversation('second', 'tag-2'), 'run');
    expect(await store.load('k', 'run')).toEqual(conversation('second', 'tag-2'));
    const files = await filesUnder(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.json$/);
  });

  it('deletes every entry of one run, and only that run', async () => {
    const dir = await tempDir();
    const store = new DirectoryConversationStore(dir);
    await store.save('a1', conversation('a1'), 'run-a');
    await store.save('a2', conversation('a2'), 'run-a');
    await store.save('b1', conversation('b1'), 'run-b');
    await store.deleteRun('run-a');
    expect(await store.load('a1', 'run-a')).toBeUndefined();
    expect(await store.load('a2', 'run-a')).toBeUndefined();
    expect(await store.load('b1', 'run-b')).toEqual(conversation('b1'));
    await store.deleteRun('no-such-run');
  });

  it('keeps key and owner names out of the file paths (they are hashed), so no key escapes the folder', async () => {
    const dir = await tempDir();
    const store = new DirectoryConversationStore(dir);
    await store.save('../../escape', conversation('x'), '../owner');
    const files = await filesUnder(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{64}\/[0-9a-f]{64}\.json$/);
  });
});

describe('AGENT_CONVERSATION_STORE', () => {
  it.each([undefined, '', '  ', 'memory', ' memory '])('%j means the in-process memory store', (value) => {
    expect(conversationStoreFromEnv(value)).toBeInstanceOf(MemoryConversationStore);
  });

  it('dir:<path> means a folder store at that path, made absolute', () => {
    const absolute = conversationStoreFromEnv('dir:/var/lib/durable-agent/conversations');
    expect(absolute).toBeInstanceOf(DirectoryConversationStore);
    expect((absolute as DirectoryConversationStore).dir).toBe('/var/lib/durable-agent/conversations');
    const relative = conversationStoreFromEnv('dir:shared/conv') as DirectoryConversationStore;
    expect(relative.dir).toBe(path.resolve('shared/conv'));
  });

  it('a postgres:// or postgresql:// URL means the PostgreSQL store, which connects only when used', async () => {
    for (const url of ['postgres://u:p@db:5432/agents', 'postgresql://u:p@db/agents', 'POSTGRES://u@db/agents']) {
      const store = conversationStoreFromEnv(url);
      expect(store).toBeInstanceOf(PostgresConversationStore);
      await store.close?.();
    }
  });

  it('does not echo the password of a URL it refuses', () => {
    const error = (() => {
      try {
        conversationStoreFromEnv('redis://user:hunter2@cache:6379');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConversationStoreConfigError);
    expect(error?.message).toContain('AGENT_CONVERSATION_STORE="redis://user:***@cache:6379"');
    expect(error?.message).not.toContain('hunter2');
  });

  it.each(['dir:', 'redis://localhost', 'Memory', 'directory:/tmp/x', 'disk'])(
    'refuses %j with a ConversationStoreConfigError that names the value and what is accepted',
    (value) => {
      let error: unknown;
      try {
        conversationStoreFromEnv(value);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConversationStoreConfigError);
      const message = (error as Error).message;
      expect(message).toContain(`AGENT_CONVERSATION_STORE="${value}"`);
      expect(message).toContain('"memory"');
      expect(message).toContain('"dir:/shared/folder"');
      expect(message).toContain('"postgres://user:password@host:5432/database"');
    },
  );

  it('stops a worker given a bad value before it connects to anything', async () => {
    // Nothing listens on port 1: a worker that got as far as connecting would fail differently.
    const error = await createAgentWorker({ address: '127.0.0.1:1', workspaceRoot: await tempDir(), env: { ANTHROPIC_API_KEY: 'test', AGENT_CONVERSATION_STORE: 'dir:', AGENT_SANDBOX: 'none' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConversationStoreConfigError);
  });
});

describe('a worker configured with AGENT_CONVERSATION_STORE=dir:', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('keeps a running run\'s conversation in that folder, and empties it when the run closes', async () => {
    const dir = await tempDir();
    const task = uniqueId('dir-store');
    fake.script(task, [reply(toolCall('write_file', { path: 'a.txt', content: 'a' })), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_CONVERSATION_STORE: `dir:${dir}` } }, async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      try {
        await waitForApprovals(handle);
        // Parked after the first model call: its conversation is on disk, under the run's folder.
        const files = await filesUnder(dir);
        expect(files).toHaveLength(1);
        const [stored] = await readdir(path.join(dir, path.dirname(files[0]!)));
        expect(stored).toMatch(/\.json$/);
        await handle.signal('approval', { callId: 'toolu_0_0', decision: 'approve' });
        expect((await handle.result()).status).toBe('completed');
      } finally {
        await handle.terminate('test cleanup').catch(() => undefined);
      }
      expect(await filesUnder(dir)).toEqual([]);
    });
  });
});
