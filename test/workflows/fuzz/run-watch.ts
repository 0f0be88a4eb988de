// Watches one run from outside, as any client could: which link of its continue-as-new chain is
// current (describe), whether it closed, and what its status query says. Triggers wait on it.
import type { WorkflowHandle } from '@temporalio/client';
import { statusQuery } from '../../../src/contract/agent-run-api';
import type { RunStatus } from '../../../src/contract/run-status';

const DESCRIBE_EVERY_MS = 30;
const QUERY_EVERY_MS = 120;

export class RunWatch {
  /** Every run id seen, in order: the first is the run's first link. */
  readonly runIds: string[] = [];
  latest?: RunStatus;
  /** The workflow status name once it is no longer RUNNING (COMPLETED, FAILED, CANCELLED, TERMINATED, ...). */
  closed?: string;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private listeners: (() => void)[] = [];

  constructor(private readonly handle: WorkflowHandle) {}

  start(): void {
    this.loops.push(this.loop(DESCRIBE_EVERY_MS, () => this.describe()), this.loop(QUERY_EVERY_MS, () => this.query()));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  get links(): number {
    return this.runIds.length;
  }

  /** Resolves true once `ready` holds (checked after every observation), false after `timeoutMs`. */
  until(ready: () => boolean, timeoutMs: number): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), timeoutMs);
      const check = () => {
        if (ready()) finish(true);
      };
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== check);
        resolve(value);
      };
      this.listeners.push(check);
    });
  }

  /** Reads the status now (the drain needs a fresh one), keeping it as the latest. */
  async refresh(): Promise<RunStatus | undefined> {
    await this.query();
    return this.latest;
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private async loop(everyMs: number, observe: () => Promise<void>): Promise<void> {
    while (!this.stopped) {
      await observe();
      this.notify();
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  private async describe(): Promise<void> {
    try {
      const description = await this.handle.describe();
      if (!this.runIds.includes(description.runId)) this.runIds.push(description.runId);
      if (description.status.name !== 'RUNNING') this.closed = description.status.name;
    } catch {
      // A transient error; the next round asks again.
    }
  }

  private async query(): Promise<void> {
    try {
      this.latest = await this.handle.client.withDeadline(Date.now() + 3_000, () => this.handle.query(statusQuery));
    } catch {
      // A run that is starting (or whose worker restarts) may not answer; the next round asks again.
    }
  }
}
