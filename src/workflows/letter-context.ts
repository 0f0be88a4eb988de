import type { SigningEnv } from '../core/machine/decision-rules';
import type { Deliveries } from './deliveries';
import type { MessageOptions } from './message-handlers';
import type { RunDriver } from './run-driver';

/** What the loop applies a letter with. */
export interface LetterContext {
  driver: RunDriver;
  deliveries: Deliveries;
  options: MessageOptions;
  signingEnv(): SigningEnv & { runId: string; toolWide: boolean };
}

/** How a letter is settled: applied (what became of it), or refused (recorded as ignored when it came as a signal). */
export interface Settle {
  applied(message: string): void;
  refuse(reason: string): void;
}
