import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { LifecycleEvent } from '../contract/lifecycle-event';
import type { PendingApproval, PendingQuestionView, RunStatus } from '../contract/run-status';
import { queryStatus } from './approval-helpers';
import type { RunOutcome } from './run-outcome';
import { RunFeed } from './run-feed';

/**
 * What following a run yields, in the order it is seen: each lifecycle event once, each call that
 * starts waiting for approval and each question once, and last how the run ended (or, for a thread,
 * that it answered and waits for the next message).
 */
export type RunEvent =
  | { type: 'lifecycle'; event: LifecycleEvent }
  | { type: 'approval'; pending: PendingApproval; status: RunStatus }
  | { type: 'question'; question: PendingQuestionView; status: RunStatus }
  | { type: 'idle'; status: RunStatus }
  | { type: 'ended'; outcome: RunOutcome };

export interface RunEventOptions {
  /** How often the run's status is read while no worker's relay pushes it (default 300 ms). */
  pollMs?: number;
  /** Take the status from a worker's live relay when one is reachable (default true). */
  relay?: boolean;
  /** Stops following (the run goes on); the iteration then just ends. */
  signal?: AbortSignal;
}

/** The items of `status` not yielded before, remembered in `seen` by their stable keys. */
function freshEvents(status: RunStatus, seen: Set<string>): RunEvent[] {
  const events: RunEvent[] = [];
  for (const event of status.events) {
    if (seen.has(`event/${event.key}`)) continue;
    seen.add(`event/${event.key}`);
    events.push({ type: 'lifecycle', event });
  }
  for (const pending of status.pendingApprovals) {
    if (seen.has(`approval/${pending.callId}`)) continue;
    seen.add(`approval/${pending.callId}`);
    events.push({ type: 'approval', pending, status });
  }
  for (const question of status.pendingQuestions) {
    if (seen.has(`question/${question.callId}`)) continue;
    seen.add(`question/${question.callId}`);
    events.push({ type: 'question', question, status });
  }
  return events;
}

/**
 * Follows a run through its status, as every client does (no history reads, nothing written to the
 * server): pushed by a worker's live relay when the model call's heartbeat names one that can be
 * reached, read by polling the `status` query otherwise (run-feed.ts). The status keeps the latest 30
 * lifecycle events, so a consumer that stalls longer than that between reads can miss some; a worker's
 * lifecycle handlers see every one. While no worker answers, following waits rather than failing: a
 * worker that restarts is picked up again.
 */
export async function* followRunEvents(handle: WorkflowHandle, options: RunEventOptions = {}): AsyncGenerator<RunEvent, void, undefined> {
  const seen = new Set<string>();
  let outcome: RunOutcome | undefined;
  let failure: unknown;
  const feed = new RunFeed(handle, { signal: options.signal, pollMs: options.pollMs ?? 300, relay: options.relay });
  // The result's long poll is cancelled when following stops early, so no call is left running
  // against a connection the caller is about to close. It starts when the end is the follower's to
  // watch: not while a relay that watches it feeds the follower (run-feed.ts, endToWatch).
  const longPoll = new AbortController();
  const ended = feed.outcome(longPoll.signal).then(
    (o) => void (outcome = o),
    (error: unknown) => void (failure = error),
  );
  try {
    while (!options.signal?.aborted) {
      const reading = await Promise.race([feed.next(), ended.then(() => undefined)]);
      if (outcome !== undefined || failure !== undefined) {
        // The run's last events (agentEnded): as the relay pushed them last, or read once more.
        const status = (await feed.endedStatus(1_000)) ?? (await queryStatus(handle, 10_000).catch(() => undefined));
        if (status) yield* freshEvents(status, seen);
        if (outcome === undefined) throw failure;
        return yield { type: 'ended', outcome };
      }
      if (!reading) continue;
      // "The run is starting", no worker yet, a worker restarting: ask again next time. Only a run
      // that does not exist ends following.
      if ('error' in reading) {
        if (reading.error instanceof WorkflowNotFoundError) throw reading.error;
        continue;
      }
      yield* freshEvents(reading.status, seen);
      if (reading.status.phase === 'idle') return yield { type: 'idle', status: reading.status };
    }
  } finally {
    longPoll.abort();
    await feed.close();
  }
}
