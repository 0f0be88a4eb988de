import type { DataConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import type { LifecycleEvent } from '../../contract/lifecycle-event';
import type { RecordedEntry } from '../../contract/replay-lab';
import { replayLabBundle } from './replay-bundle';
import type { ReplayedLink } from './recorded-run';
import { RecordedRunUnreadableError } from './replay-errors';

export type History = temporal.api.history.v1.IHistory;

/**
 * Replays each link's history with the `agentRun` code and the recorder, collecting what they hand
 * out. Nothing runs: the replayer takes every activity's result from the history. A history that does
 * not replay with this release's code cannot be read, and the error says which link.
 */
export async function replayLinks(workflowId: string, links: { runId: string; history: History }[], dataConverter?: DataConverter): Promise<ReplayedLink[]> {
  const replayed: ReplayedLink[] = links.map((link) => ({ runId: link.runId, entries: [], events: [] }));
  // The replayer takes one history at a time and reports it before the next starts, so what the
  // sinks hand out belongs to the link being replayed.
  let current = 0;
  const link = () => replayed[Math.min(current, replayed.length - 1)]!;
  const replays = Worker.runReplayHistories(
    {
      workflowBundle: await replayLabBundle(),
      ...(dataConverter ? { dataConverter } : {}),
      replayName: `replay-lab-${workflowId}`,
      sinks: {
        replayLab: { recorded: { fn: (_info, entry: RecordedEntry) => void link().entries.push(entry), callDuringReplay: true } },
        lifecycle: { emit: { fn: (_info, event: LifecycleEvent) => void link().events.push(event), callDuringReplay: true } },
        forkPoints: { iterationEnded: { fn: () => undefined } },
      },
    },
    links.map((link) => ({ workflowId, history: link.history })),
  );
  for await (const result of replays) {
    if (result.error) throw new RecordedRunUnreadableError(`Could not read run ${workflowId} (link ${link().runId}): its history does not replay with this release's code (${result.error.message}).`);
    current += 1;
  }
  return replayed;
}
