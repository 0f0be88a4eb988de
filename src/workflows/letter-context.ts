import type { SigningEnv } from '../core/machine/decision-rules';
import type { Features } from './compat/patches';
import type { Deliveries } from './deliveries';
import type { Mailbox } from './mailbox';
import type { MessageOptions } from './message-handlers';
import type { RunDriver } from './run-driver';

/** What the loop applies a letter with. */
export interface LetterContext {
  driver: RunDriver;
  deliveries: Deliveries;
  options: MessageOptions;
  /** Holds the answers of letters applied in the task that cancelled the run, for `endRun` to give. */
  mailbox: Mailbox;
  runFeatures: Pick<Features, 'appliedAtCancel' | 'accountableRaises'>;
  signingEnv(): SigningEnv & { runId: string; toolWide: boolean };
}

/** How a letter is settled: applied (what became of it), or refused (recorded as ignored when it came as a signal). */
export interface Settle {
  applied(message: string): void;
  refuse(reason: string): void;
  /**
   * The message is in the state (dispatched): from here on it cannot be refused. `message` is its
   * answer if the run is cancelled before `applied` (while its audit line is written, say).
   */
  committed(message: string): void;
}
