import type { ApprovalDecision, FollowUp, UserReply } from '../contract/approval-decision';
import type { SetMode } from '../contract/permission-mode';
import type { RaiseBudget } from '../contract/budget';
import type { ChildWaiting } from '../contract/run-records';
import type { RunEvent } from '../core/machine/run-events';

/**
 * A person's or another run's message, as a handler parsed it: what the loop applies. Signals and
 * updates of one kind become the same message (`via` says which), so both are applied by one path.
 */
export type Message =
  | { kind: 'decision'; decision: ApprovalDecision; via: 'signal' | 'update' }
  | { kind: 'decisions'; decisions: ApprovalDecision[] }
  | { kind: 'mode'; change: SetMode }
  | { kind: 'raise_budget'; raise: RaiseBudget; via: 'signal' | 'update' }
  | { kind: 'reply'; reply: UserReply; via: 'signal' | 'update' }
  | { kind: 'follow_up'; message: FollowUp; via: 'signal' | 'update' }
  | { kind: 'close'; via: 'signal' | 'update' }
  | { kind: 'child_status'; workflowId: string; waiting: ChildWaiting }
  /** A signal whose payload could not be read: the loop records it as ignored, with the reason. */
  | { kind: 'malformed'; ignoredAs: string; reason: string; payload: unknown };

/** What a message's sender learns: it was applied (what became of it), or refused (why). */
export type Answer = { applied: true; message: string } | { refused: string };

/** A message with the way back to the handler that waits for its answer (answered once; later calls do nothing). */
export interface Letter {
  message: Message;
  /** The raw payload, for the `ignored` record of a signal that is refused. */
  payload: unknown;
  answer(answer: Answer): void;
}

/** What the loop takes from the mailbox: a message, the outcome of its own background work, or that work's own failure. */
export type Delivery = { kind: 'letter'; letter: Letter } | { kind: 'result'; event: RunEvent } | { kind: 'fault'; error: unknown };

/**
 * The one queue into the run's loop. Message handlers post letters and wait for their answers; the
 * run's own background work (tool calls, sub-agent runs, a parent that could not be told) reports its
 * outcome as an event; the loop takes everything in arrival order, and is the only code that applies
 * any of it to the state. Once the run has ended (or hands over to its next link) the mailbox is
 * closed: a letter posted then is refused at once with the reason, so no handler waits for a loop
 * that no longer runs.
 */
export class Mailbox {
  private readonly queue: Delivery[] = [];
  private closedWith: string | undefined;
  /** Takes a letter posted once the mailbox is closed (to record a late signal), before it is refused. */
  private late: ((letter: Letter) => void) | undefined;
  /** Letters applied in the task that cancelled the run, with their answers: given once their audit lines are written. */
  private readonly held: { letter: Letter; message: string }[] = [];

  /** How many deliveries wait for the loop. */
  get size(): number {
    return this.queue.length;
  }

  /** Why the mailbox takes no more letters, once it is closed. */
  get closed(): string | undefined {
    return this.closedWith;
  }

  /** A handler's side: queues the message and resolves with the loop's answer. */
  post(message: Message, payload: unknown): Promise<Answer> {
    return new Promise<Answer>((resolve) => {
      let answered = false;
      const answer = (a: Answer) => {
        if (answered) return;
        answered = true;
        resolve(a);
      };
      const letter: Letter = { message, payload, answer };
      if (this.closedWith === undefined) return void this.queue.push({ kind: 'letter', letter });
      this.late?.(letter);
      answer({ refused: this.closedWith });
    });
  }

  /** The outcome of the run's own background work, as the event the loop applies. */
  report(event: RunEvent): void {
    this.queue.push({ kind: 'result', event });
  }

  /** A failure of the run's own background work that is not an outcome (a cancellation): the loop rethrows it. */
  fault(error: unknown): void {
    this.queue.push({ kind: 'fault', error });
  }

  /**
   * A letter the loop applied when the run was cancelled before its audit line was on disk: `endRun`
   * answers it (`answerHeld`) once it has written that line.
   */
  hold(letter: Letter, message: string): void {
    this.held.push({ letter, message });
  }

  /** Answers the held letters "applied", with `note` after each one's message. */
  answerHeld(note: string): void {
    for (const { letter, message } of this.held.splice(0)) letter.answer({ applied: true, message: `${message}${note}` });
  }

  /** The oldest delivery, if any. */
  take(): Delivery | undefined {
    return this.queue.shift();
  }

  /**
   * Takes no more letters from now on: one posted later is handed to `late` (if given) and refused
   * with `reason`. Returns the letters still queued, for the caller to refuse.
   */
  close(reason: string, late?: (letter: Letter) => void): Letter[] {
    this.closedWith ??= reason;
    this.late ??= late;
    const left = this.queue.splice(0);
    return left.flatMap((d) => (d.kind === 'letter' ? [d.letter] : []));
  }
}
