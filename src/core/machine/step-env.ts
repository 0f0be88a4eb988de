/**
 * Behaviour that differs between histories of earlier releases and new runs (see src/workflows/compat/patches.ts). The
 * choices travel in the step, so the executors never read a patch flag.
 */
export interface StepFeatures {
  compactionByBudget: boolean;
  concurrentReadTools: boolean;
  localQuickTools: boolean;
  waitOutModelOutage: boolean;
  toolResultEndsRun: boolean;
  /**
   * A run waiting for a person while calls of its turn still run continues as new only once they have
   * finished (absent: at once, as executions from before the one-writer patch did, which left the
   * running calls, and a sub-agent's run, without anyone to report to in the next link).
   */
  handOverWhenCallsDone?: boolean;
  /**
   * A sub-agent's run cancelled by someone else (not by this run's own cancel) is the call's result,
   * "cancelled", and the run goes on (absent: the run failed with the child's cancellation).
   */
  childCancelIsAResult?: boolean;
}

/** What the machine needs from outside to choose the next step: the clock, the history's size, and the features. */
export interface StepEnv {
  now: number;
  /** The history is large enough that the run should continue as new at its next safe point. */
  historyFull: boolean;
  features: StepFeatures;
}

