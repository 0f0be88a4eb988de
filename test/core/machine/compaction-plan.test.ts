// The conversation's size is measured per message and remembered (issue 24): the estimate must stay
// exactly what measuring the whole conversation gave, as transitions add and compactions replace messages.
import { produce } from 'immer';
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../src/contract/messages';
import { estimatePromptTokens } from '../../../src/core/machine/compaction-plan';
import type { RunState } from '../../../src/core/machine/run-state';
import { runState } from './state-factory';

/** What the estimate was before sizes were remembered: the whole conversation, stringified. */
const wholeEstimate = (state: RunState) => Math.ceil(JSON.stringify(state.messages).length / 3.5);

const turn = (i: number, output: string): ConversationMessage[] => [
  { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'read_file', input: { path: `f${i}` } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: output }] },
];

describe('estimatePromptTokens', () => {
  it('equals the whole conversation measured at once, turn after turn', () => {
    let state = runState();
    for (let i = 0; i < 5; i += 1) {
      state = produce(state, (draft) => void draft.messages.push(...turn(i, `output "${i}" ${'é'.repeat(i * 100)}`)));
      expect(estimatePromptTokens(state)).toBe(wholeEstimate(state));
    }
  });

  it('measures a message replaced by a transition afresh, not from what it remembered', () => {
    let state = produce(runState(), (draft) => void draft.messages.push(...turn(0, 'short')));
    expect(estimatePromptTokens(state)).toBe(wholeEstimate(state));
    state = produce(state, (draft) => {
      const result = draft.messages[2]!.content as { type: 'tool_result'; content: string }[];
      result[0]!.content = 'x'.repeat(10_000);
    });
    expect(estimatePromptTokens(state)).toBe(wholeEstimate(state));
  });

  it('measures a draft as it is, changes made in the same transition included', () => {
    const base = produce(runState(), (draft) => void draft.messages.push(...turn(0, 'short')));
    estimatePromptTokens(base);
    produce(base, (draft) => {
      (draft.messages[2]!.content as { type: 'tool_result'; content: string }[])[0]!.content = 'y'.repeat(5_000);
      expect(estimatePromptTokens(draft)).toBe(wholeEstimate(draft));
    });
  });
});
