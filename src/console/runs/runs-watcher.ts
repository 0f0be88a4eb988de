// One poller for every open page: it lists runs from visibility, asks each live run for its `status`,
// builds the inbox, and hands a snapshot to subscribers only when something changed. Polling is the
// only way to learn of decisions made elsewhere (the CLI, the `temporal` CLI) without a second store.
import type { Client } from '@temporalio/client';
import { queryStatus } from '../../client/approval-helpers';
import { NoWorkerAnsweredError } from '../../client/errors';
import type { RunStatus } from '../../contract/run-status';
import { InboxBuilder, type InboxEntry } from './inbox';
import { listRuns, type RunRow } from './run-list';

/** A run as the run list shows it: visibility's view, plus the run's own report when it answered. */
export interface RunView extends RunRow {
  task?: string;
  user?: string;
  /** The phase the run reports (fresher than the search attribute). */
  phase?: string;
  iteration?: number;
  maxIterations?: number;
  progress?: RunStatus['progress'];
  usage?: RunStatus['usage'];
  completion?: RunStatus['completion'];
  waiting: number;
  /** Why the run's own report is missing (no worker answered). */
  statusError?: string;
}

export interface ConsoleSnapshot {
  at: string;
  runs: RunView[];
  inbox: InboxEntry[];
}

export interface WatcherOptions {
  query: string;
  limit: number;
  pollMs: number;
  workspace?: string;
  /** Per run; one run without a worker must not hold up the others for long. */
  statusTimeoutMs?: number;
}

interface KnownStatus {
  runId: string;
  status?: RunStatus;
  error?: string;
  /** No new query before this (after a failure, or ever for a closed run that answered). */
  retryAt: number;
}

/** How long a run whose worker did not answer is left alone before the next status query. */
const FAILURE_BACKOFF_MS = 5_000;

export class RunsWatcher {
  private readonly listeners = new Set<(snapshot: ConsoleSnapshot) => void>();
  private readonly statuses = new Map<string, KnownStatus>();
  private readonly inbox: InboxBuilder;
  private last?: ConsoleSnapshot;
  private lastJson = '';
  private loop?: Promise<void>;
  private wake?: () => void;
  private closed = false;

  constructor(private readonly client: Client, private readonly options: WatcherOptions) {
    this.inbox = new InboxBuilder(options.workspace);
  }

  /** Calls `listener` with the latest snapshot at once (if any) and on every change; returns the unsubscribe. */
  subscribe(listener: (snapshot: ConsoleSnapshot) => void): () => void {
    this.listeners.add(listener);
    if (this.last) listener(this.last);
    this.loop ??= this.run();
    return () => this.listeners.delete(listener);
  }

  /** Polls now rather than at the next tick: after a decision, so the item leaves at once. */
  refreshNow(): void {
    this.wake?.();
  }

  latest(): ConsoleSnapshot | undefined {
    return this.last;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.closed && this.listeners.size > 0) {
      try {
        await this.tick();
      } catch (error) {
        // A visibility hiccup (server restarting) must not end the loop; the next tick tries again.
        this.lastError = error instanceof Error ? error.message : String(error);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    this.loop = undefined;
  }

  lastError?: string;

  /** One poll: visibility, then the status of every run that may have changed, then the inbox. */
  async tick(): Promise<ConsoleSnapshot> {
    const rows = await listRuns(this.client, { query: this.options.query, limit: this.options.limit });
    await Promise.all(rows.map((row) => this.refreshStatus(row)));
    const live = new Set(rows.map((r) => r.workflowId));
    for (const id of this.statuses.keys()) if (!live.has(id)) this.statuses.delete(id);
    const runs = rows.map((row) => this.viewOf(row));
    const waiting = rows
      .filter((row) => row.execution === 'RUNNING')
      .flatMap((row) => {
        const status = this.statuses.get(row.workflowId)?.status;
        return status ? [{ status, rootWorkflowId: row.rootWorkflowId }] : [];
      });
    const snapshot: ConsoleSnapshot = { at: new Date().toISOString(), runs, inbox: await this.inbox.build(waiting) };
    this.lastError = undefined;
    const json = JSON.stringify({ runs: snapshot.runs, inbox: snapshot.inbox });
    if (json !== this.lastJson) {
      this.lastJson = json;
      this.last = snapshot;
      for (const listener of this.listeners) listener(snapshot);
    }
    return snapshot;
  }

  private async refreshStatus(row: RunRow): Promise<void> {
    const known = this.statuses.get(row.workflowId);
    const sameRun = known?.runId === row.runId;
    if (sameRun && Date.now() < known.retryAt) return;
    try {
      const status = await queryStatus(this.client.workflow.getHandle(row.workflowId, row.runId), this.options.statusTimeoutMs ?? 2_000);
      // A closed run's report never changes: ask once.
      this.statuses.set(row.workflowId, { runId: row.runId, status, retryAt: row.execution === 'RUNNING' ? 0 : Number.POSITIVE_INFINITY });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A run without a worker would cost a timeout on every tick: wait before asking again. Other
      // refusals ("the run is starting") are brief, so the next tick asks again.
      const retryAt = error instanceof NoWorkerAnsweredError ? Date.now() + FAILURE_BACKOFF_MS : 0;
      this.statuses.set(row.workflowId, { runId: row.runId, status: sameRun ? known.status : undefined, error: message, retryAt });
    }
  }

  private viewOf(row: RunRow): RunView {
    const known = this.statuses.get(row.workflowId);
    const s = known?.status;
    if (!s) return { ...row, waiting: 0, statusError: known?.error };
    return {
      ...row,
      task: s.task,
      user: s.user,
      phase: s.phase,
      iteration: s.iteration,
      maxIterations: s.maxIterations,
      progress: s.progress,
      usage: s.usage,
      completion: s.completion,
      // A closed run may still list the call it was parked on when it ended; nobody can decide that.
      waiting: row.execution === 'RUNNING' ? s.pendingApprovals.length + (s.pendingQuestions ?? []).length : 0,
      statusError: known.error,
    };
  }
}
