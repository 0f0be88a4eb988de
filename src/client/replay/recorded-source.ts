import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { queryStatus } from '../approval-helpers';
import { chainOf } from '../fork-point';
import type { StoredConversationLookup } from './recorded-conversation';
import { replayLinks, type History } from './recorded-replay';
import { assembleRecordedRun, type RecordedEnding, type RecordedRun } from './recorded-run';
import { RunNotReplayableError } from './replay-errors';

/** Phases of a running run that wait for a person: its history up to there is a record that will not move by itself. */
const PARKED = new Set(['waiting_approval', 'waiting_input', 'waiting_budget', 'idle']);

const ENDINGS: Record<string, RecordedEnding> = { COMPLETED: 'completed', FAILED: 'failed', CANCELLED: 'cancelled', TERMINATED: 'terminated', TIMED_OUT: 'timed_out' };

/**
 * How the run stands, refusing what cannot be replayed: a run that does not exist, and one that is
 * still working (its history is not a finished record yet). A parked run is read up to where it waits.
 */
export async function recordedEnding(client: Client, workflowId: string): Promise<RecordedEnding> {
  let status: string;
  try {
    status = (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new RunNotReplayableError(`There is no run ${workflowId} (check the id with agentctl list).`);
    throw error;
  }
  if (status !== 'RUNNING') return ENDINGS[status] ?? 'completed';
  const phase = await queryStatus(client.workflow.getHandle(workflowId), 10_000).then(
    (s) => s.phase,
    (error: Error) => {
      throw new RunNotReplayableError(`Run ${workflowId} is still running and its status could not be read (${error.message}); replay it once it has closed or is parked on a person.`);
    },
  );
  if (!PARKED.has(phase)) throw new RunNotReplayableError(`Run ${workflowId} is still working (phase ${phase}); replay it once it has closed or is parked on a person.`);
  return 'parked';
}

/** Every link's history of a run that can be replayed, oldest first, and how the run stands. */
export async function fetchRecordedHistories(client: Client, workflowId: string): Promise<{ ending: RecordedEnding; links: { runId: string; history: History }[] }> {
  const ending = await recordedEnding(client, workflowId);
  return { ending, links: await chainOf(client, workflowId) };
}

/** Reads a run from the server: its histories, replayed in this process with the recorder. */
export async function loadRecordedRun(client: Client, workflowId: string, lookup?: StoredConversationLookup): Promise<RecordedRun> {
  const { ending, links } = await fetchRecordedHistories(client, workflowId);
  return assembleRecordedRun(workflowId, await replayLinks(workflowId, links, client.options.dataConverter), ending, lookup);
}
