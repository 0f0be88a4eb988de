// "Run it now": a trigger asks the schedule to fire at once. Temporal answers a trigger before the
// schedule acts on it, so the outcome (a run started, or skipped because one is open) is read back
// from the schedule's counters.
import { ScheduleOverlapPolicy, type Client, type ScheduleDescription } from '@temporalio/client';
import { describeAgentSchedule, type ScheduleScope } from './schedules-lookup';
import { checkOverlap, OVERLAP_POLICY, type ScheduleOverlap } from './schedules-settings';

export interface TriggerOptions extends ScheduleScope {
  /**
   * The overlap policy for this firing; default: the schedule's own, so with `skip` nothing starts
   * while a run of the schedule is open. `allow_all` starts one anyway, but Temporal does not count
   * such a run as the schedule's open run: later firings do not wait for it.
   */
  overlap?: ScheduleOverlap;
  /** How long to wait for the schedule to act (default 20 s); after it the outcome is `pending`. */
  waitMs?: number;
}

/** What a trigger came to. */
export type TriggerOutcome =
  /**
   * A run started; its workflow id. Under `cancel_other` the server asks the open run to cancel and
   * may start the new one before the old one has closed.
   */
  | { outcome: 'started'; workflowId: string }
  /** Skipped by the overlap policy: these runs of the schedule are open. */
  | { outcome: 'skipped'; openRuns: string[] }
  /** Not acted on yet: buffered behind an open run (`buffer_one`, `cancel_other`), or the server is slow. */
  | { outcome: 'pending'; openRuns: string[] };

/**
 * The server takes two triggers of one schedule within the same second as one (the firing's time,
 * to the second, names it), so a second trigger in that second would be dropped without a word. The
 * second of each schedule's last trigger from this process, and the schedule's latest action, tell
 * us when to wait for the next one. Triggers from other processes in the same second still collapse.
 */
const lastTriggerSecond = new Map<string, number>();

async function waitForFreshSecond(key: string, description: ScheduleDescription): Promise<void> {
  const latestAction = Math.max(0, ...description.info.recentActions.map((a) => Math.floor(a.takenAt.getTime() / 1000)));
  const taken = Math.max(lastTriggerSecond.get(key) ?? 0, latestAction);
  const wait = (taken + 1) * 1000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 20));
}

const openRunsOf = (d: ScheduleDescription) => d.info.runningActions.map((a) => a.workflow.workflowId);

/**
 * Fires a schedule now and reports what came of it: a run started (its workflow id), skipped by the
 * overlap policy, or still pending after `waitMs`.
 */
export async function triggerSchedule(client: Client, name: string, options: TriggerOptions = {}): Promise<TriggerOutcome> {
  const overlap = options.overlap === undefined ? undefined : checkOverlap(options.overlap);
  const { handle, description: before } = await describeAgentSchedule(client, name, options);
  const key = `${client.options.namespace}/${name}`;
  await waitForFreshSecond(key, before);
  lastTriggerSecond.set(key, Math.floor(Date.now() / 1000));
  // Never left undefined: the SDK would then trigger with ALLOW_ALL, which the schedule does not track.
  await handle.trigger(overlap === undefined ? (before.policies.overlap ?? ScheduleOverlapPolicy.SKIP) : OVERLAP_POLICY[overlap]);
  const deadline = Date.now() + (options.waitMs ?? 20_000);
  let now = before;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    now = await handle.describe();
    if (now.info.numActionsTaken > before.info.numActionsTaken) {
      const latest = [...now.info.recentActions].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime())[0]!;
      return { outcome: 'started', workflowId: latest.action.workflow.workflowId };
    }
    if (now.info.numActionsSkippedOverlap > before.info.numActionsSkippedOverlap) return { outcome: 'skipped', openRuns: openRunsOf(now) };
  }
  return { outcome: 'pending', openRuns: openRunsOf(now) };
}
