import type { RunState } from '../core/machine/run-state';
import type { Answer } from './mailbox';

/**
 * The `sendMessage` updates that wait for the agent to take up their message (it answers when the
 * agent's turn on it starts). Each message is known by its place in the inbox's stream, not by its
 * text, so two messages with one text are told apart: the inbox only ever grows at its end and is
 * taken from its front (a thread's next message, or all of a working run's steering at once), so a
 * message has been taken once more messages have left the inbox than came before it.
 */
export class Deliveries {
  /** Messages that ever entered the inbox in this link, counting those the link started with. */
  private entered: number;
  private readonly waiting: { place: number; answer: (answer: Answer) => void }[] = [];

  constructor(state: RunState) {
    this.entered = state.thread.inbox.length;
  }

  /** How many messages have left the inbox so far. */
  private left(state: RunState): number {
    return this.entered - state.thread.inbox.length;
  }

  /**
   * Call after every follow-up the loop applied, with the inbox's length before it: true when the
   * message entered the inbox (it waits behind the current turn); `answer` is then called once the
   * agent takes it up (or `answerAll` says why it will not be in this link).
   */
  queued(before: number, state: RunState, answer?: (answer: Answer) => void): boolean {
    if (state.thread.inbox.length <= before) return false;
    const place = this.entered;
    this.entered += 1;
    if (answer) this.waiting.push({ place, answer });
    return true;
  }

  /** Answers the updates whose message the agent has taken up. */
  check(state: RunState): void {
    const left = this.left(state);
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const waiter = this.waiting[i]!;
      if (waiter.place >= left) continue;
      this.waiting.splice(i, 1);
      waiter.answer({ applied: true, message: 'message delivered after the current turn' });
    }
  }

  /** Answers every update still waiting, saying what became of its message (the link ends, or the run). */
  answerAll(message: string): void {
    for (const waiter of this.waiting.splice(0)) waiter.answer({ applied: true, message });
  }
}
