// The checks a person's follow-up, close and mode switch pass before the loop applies them (issue 31):
// the inbox and a thread's completions are bounded, and the refusal says which bound and what to do.
import { describe, expect, it } from 'vitest';
import { closeRefusal, followUpRefusal, inboxRefusal, modeRefusal, threadFullRefusal, utf8Bytes } from '../../../src/core/machine/message-rules';
import { StateLimits, type RunState } from '../../../src/core/machine/run-state';
import { runState } from './state-factory';

const env = { now: Date.parse('2026-11-23T10:00:00.000Z'), namespace: 'default', firstRunId: 'r1', steering: true };
const thread = (overrides: Partial<RunState['thread']> = {}, followUps = true): RunState => {
  const state = runState({ thread: { completions: [], iterationBase: 0, inbox: [], closeRequested: false, ...overrides } });
  return { ...state, input: { ...state.input, followUps } };
};
const completion = (summary: string) => ({ summary, status: 'success' as const });

describe('utf8Bytes', () => {
  it('counts UTF-8 bytes as an encoder would', () => {
    for (const text of ['', 'plain', 'é', '€ and 中文', '🙂 emoji', '\uD83D', 'x'.repeat(1_000)]) expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });
});

describe('the inbox bound', () => {
  it('takes messages up to its count, and refuses the next one saying so', () => {
    const full = thread({ inbox: Array.from({ length: StateLimits.inbox }, (_, i) => `m${i}`) });
    expect(inboxRefusal(thread({ inbox: ['a'] }), 'b', undefined)).toBeUndefined();
    expect(inboxRefusal(full, 'one more', undefined)).toMatch(/inbox is full \(20 messages wait for the agent\): this follow-up message is refused/);
    expect(inboxRefusal({ ...full, input: { ...full.input, followUps: false } }, 'x', undefined)).toMatch(/this steering message is refused/);
  });

  it('counts the bytes of the waiting messages and their senders\' names', () => {
    const half = 'é'.repeat(StateLimits.inboxBytes / 4); // 2 bytes each: half the bound
    expect(inboxRefusal(thread({ inbox: [half] }), half, undefined)).toBeUndefined();
    expect(inboxRefusal(thread({ inbox: [half], inboxFrom: ['ann'] }), half, undefined)).toMatch(/may hold 256 KiB; they hold 128 KiB/);
    expect(inboxRefusal(thread({ inbox: [half] }), half, 'bob')).toMatch(/inbox is full/);
  });
});

describe('the thread bound', () => {
  it('refuses a follow-up once completions and waiting messages reach the count', () => {
    const many = Array.from({ length: StateLimits.threadCompletions - 1 }, (_, i) => completion(`c${i}`));
    expect(threadFullRefusal(thread({ completions: many }))).toBeUndefined();
    expect(threadFullRefusal(thread({ completions: many, inbox: ['waiting'] }))).toMatch(/limit of 100 completions .*close it and start a new thread/);
  });

  it('refuses once the completions fill their bytes, and never for a run that is not a thread', () => {
    const big = completion('x'.repeat(StateLimits.threadCompletionBytes));
    expect(threadFullRefusal(thread({ completions: [big] }))).toMatch(/completions fill 256 KiB, its limit of 256 KiB/);
    expect(threadFullRefusal(thread({ completions: [big] }, false))).toBeUndefined();
  });
});

describe('followUpRefusal', () => {
  it('checks what the run takes, then whether it ended, then who sends, then the bounds', () => {
    const plain = thread({}, false);
    expect(followUpRefusal(plain, { text: 'x' }, { ...env, steering: false })).toBe('This run does not take follow-up messages; start it with followUps: true');
    expect(followUpRefusal(plain, { text: 'x' }, env)).toBeUndefined();
    expect(followUpRefusal({ ...thread(), outcome: { kind: 'completed' } }, { text: 'x' }, env)).toBe('The run has ended');
    const guarded = thread({ inbox: Array.from({ length: StateLimits.inbox }, () => 'm') });
    const withApprovers = { ...guarded, input: { ...guarded.input, approvers: ['ann'] } };
    expect(followUpRefusal(withApprovers, { text: 'x', sender: 'eve' }, env)).toMatch(/"eve" may not send follow-up messages/);
    expect(followUpRefusal(withApprovers, { text: 'x', sender: 'ann' }, env)).toMatch(/inbox is full/);
  });
});

describe('closeRefusal and modeRefusal', () => {
  it('refuse what the validators always refused', () => {
    expect(closeRefusal(thread({}, false))).toBe('This run is not a thread; cancel it to stop it');
    expect(closeRefusal({ ...thread(), outcome: { kind: 'completed' } })).toBe('The run has ended');
    expect(closeRefusal(thread())).toBeUndefined();
    expect(modeRefusal({ ...thread(), outcome: { kind: 'completed' } }, { mode: 'plan' })).toBe('The run has ended; its mode cannot change');
    const signed = { ...thread(), approverKeys: {} };
    expect(modeRefusal(signed, { mode: 'dontAsk' })).toBeUndefined();
    expect(modeRefusal(signed, { mode: 'acceptEdits' })).toMatch(/may only tighten the run/);
  });
});
