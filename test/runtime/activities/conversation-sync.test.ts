import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { materialize } from '../../../src/runtime/activities/conversation-sync';
import { MemoryConversationStore } from '../../../src/runtime/conversation/conversation-store';
import type { ConversationMessage } from '../../../src/contract/messages';
import { FailureType } from '../../../src/contract/errors';

const user = (text: string): ConversationMessage => ({ role: 'user', content: text });
const assistant = (text: string): ConversationMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });

async function missType(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof ApplicationFailure ? (error.type ?? undefined) : 'not an ApplicationFailure';
  }
}

describe('materialize', () => {
  it('rebuilds the stored prefix plus what the workflow appended', async () => {
    const store = new MemoryConversationStore();
    await store.save('k', { messages: [user('task'), assistant('a1')], tag: 't1' });
    const messages = await materialize(store, { key: 'k', baseCount: 2, tag: 't1', append: [user('r1')] });
    expect(messages).toEqual([user('task'), assistant('a1'), user('r1')]);
  });

  it('reports a miss when the store lacks the conversation or holds fewer messages', async () => {
    const store = new MemoryConversationStore();
    expect(await missType(materialize(store, { key: 'k', baseCount: 2, tag: 't1', append: [] }))).toBe(FailureType.ConversationStoreMiss);
    await store.save('k', { messages: [user('task')], tag: 't1' });
    expect(await missType(materialize(store, { key: 'k', baseCount: 2, tag: 't1', append: [] }))).toBe(FailureType.ConversationStoreMiss);
  });

  it('reports a miss when a late write from an abandoned attempt replaced the reply the workflow kept', async () => {
    const store = new MemoryConversationStore();
    // Attempt 2 succeeded and the workflow recorded its tag; attempt 1 finished later and overwrote it.
    await store.save('k', { messages: [user('task'), assistant('reply from attempt 2')], tag: 'attempt-2' });
    await store.save('k', { messages: [user('task'), assistant('reply from attempt 1')], tag: 'attempt-1' });
    const ref = { key: 'k', baseCount: 2, tag: 'attempt-2', append: [user('r1')] };
    expect(await missType(materialize(store, ref))).toBe(FailureType.ConversationStoreMiss);
  });

  it('needs no store when the whole conversation is sent', async () => {
    const store = new MemoryConversationStore();
    expect(await materialize(store, { key: 'k', baseCount: 0, append: [user('task')] })).toEqual([user('task')]);
  });
});
