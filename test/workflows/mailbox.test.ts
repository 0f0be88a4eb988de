// The loop's one queue (issue 31): letters and background outcomes in arrival order, answered once,
// and a closed mailbox refuses at once so no handler waits for a loop that no longer runs.
import { describe, expect, it } from 'vitest';
import { Deliveries } from '../../src/workflows/deliveries';
import { Mailbox, type Answer } from '../../src/workflows/mailbox';
import { runState } from '../core/machine/state-factory';

describe('Mailbox', () => {
  it('hands out letters and outcomes in arrival order, and a letter is answered once', async () => {
    const mailbox = new Mailbox();
    const answer = mailbox.post({ kind: 'close', via: 'update' }, {});
    mailbox.report({ type: 'time_passed' });
    expect(mailbox.size).toBe(2);
    const first = mailbox.take();
    expect(first?.kind).toBe('letter');
    if (first?.kind !== 'letter') return;
    first.letter.answer({ applied: true, message: 'thread closed' });
    first.letter.answer({ refused: 'too late' });
    expect(await answer).toEqual({ applied: true, message: 'thread closed' });
    expect(mailbox.take()).toEqual({ kind: 'result', event: { type: 'time_passed' } });
    expect(mailbox.take()).toBeUndefined();
  });

  it('once closed, returns what was queued and refuses what comes after at once', async () => {
    const mailbox = new Mailbox();
    const queued = mailbox.post({ kind: 'close', via: 'signal' }, {});
    mailbox.report({ type: 'time_passed' });
    const left = mailbox.close('The run has ended');
    expect(left).toHaveLength(1);
    expect(mailbox.size).toBe(0);
    left[0]!.answer({ refused: 'The run has ended' });
    expect(await queued).toEqual({ refused: 'The run has ended' });
    expect(await mailbox.post({ kind: 'close', via: 'update' }, {})).toEqual({ refused: 'The run has ended' });
    expect(mailbox.closed).toBe('The run has ended');
  });
});

describe('Deliveries', () => {
  const thread = (inbox: string[]) => runState({ thread: { completions: [], iterationBase: 0, inbox, closeRequested: false } });

  it('tells two messages with the same text apart by their place in the inbox', () => {
    const answers: Answer[][] = [[], []];
    const deliveries = new Deliveries(thread(['from the last link']));
    expect(deliveries.queued(1, thread(['from the last link', 'same']), (a) => answers[0]!.push(a))).toBe(true);
    expect(deliveries.queued(2, thread(['from the last link', 'same', 'same']), (a) => answers[1]!.push(a))).toBe(true);
    deliveries.check(thread(['same', 'same']));
    expect(answers).toEqual([[], []]);
    deliveries.check(thread(['same']));
    expect(answers).toEqual([[{ applied: true, message: 'message delivered after the current turn' }], []]);
    deliveries.check(thread([]));
    expect(answers[1]).toHaveLength(1);
  });

  it('counts a message that started a turn at once as never queued, and answers the rest when the link ends', () => {
    const answers: Answer[] = [];
    const deliveries = new Deliveries(thread([]));
    expect(deliveries.queued(0, thread([]), (a) => answers.push(a))).toBe(false);
    expect(deliveries.queued(0, thread(['a']), (a) => answers.push(a))).toBe(true);
    deliveries.answerAll('message queued; the agent takes it up after the current turn');
    deliveries.check(thread([]));
    expect(answers).toEqual([{ applied: true, message: 'message queued; the agent takes it up after the current turn' }]);
  });
});
