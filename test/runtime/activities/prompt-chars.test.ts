import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../src/contract/messages';
import { promptCharsOf } from '../../../src/runtime/activities/prompt-chars';

const user = (text: string): ConversationMessage => ({ role: 'user', content: text });
const call = (id: string): ConversationMessage => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'list_files', input: { path: 'ü/"q"' } }] });

describe('promptCharsOf', () => {
  it('is the length of the whole conversation as JSON, brackets and commas included', () => {
    for (const messages of [[], [user('hi')], [user('task'), call('a'), user('é\n"x"'), call('b')]]) {
      expect(promptCharsOf(messages)).toBe(JSON.stringify(messages).length);
    }
  });

  it('gives the same figure when the conversation grows and messages seen before come back', () => {
    const first = [user('task'), call('a')];
    expect(promptCharsOf(first)).toBe(JSON.stringify(first).length);
    const grown = [...first, user('x'.repeat(5_000)), call('b')];
    expect(promptCharsOf(grown)).toBe(JSON.stringify(grown).length);
    // The same text in new objects (a store that parses its file anew) is measured anew, to the same figure.
    const parsed = JSON.parse(JSON.stringify(grown)) as ConversationMessage[];
    expect(promptCharsOf(parsed)).toBe(JSON.stringify(grown).length);
  });
});
