// Where a run's live relay is, read from the run's history: the model activity's result names the
// relay of the worker that made the call, and the run's token (call-model.ts). A watcher reads it
// once, whether or not a call is in flight (a run parked on an approval has none, so no heartbeat):
// one read of the newest events, served by Temporal's frontend from the history, without a query task
// for the run's worker and without anything written. Reading it takes the access reading the run's
// history takes, and, when payloads are encrypted, the key.
import type { WorkflowHandle } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { LiveRelayAddressSchema, type LiveRelayAddress } from '../contract/live-feed';

/** The newest events read: enough for a turn of many parallel tool calls after the model's reply. */
const NEWEST_EVENTS = 200;
/** A server that does not answer this fast leaves the watcher to poll as before. */
const LOOK_UP_TIMEOUT_MS = 5_000;

/**
 * The relay named by the run's latest model call, or undefined: no call has completed in this run (or
 * within its newest events), the worker that made it runs no relay, or its result cannot be decoded
 * here (payloads encrypted with a key this client lacks). Rejects as the history read does (a run
 * that does not exist, a namespace this client cannot read).
 */
export async function relayInHistory(handle: WorkflowHandle): Promise<LiveRelayAddress | undefined> {
  const { client } = handle;
  const { history } = await client.withDeadline(Date.now() + LOOK_UP_TIMEOUT_MS, () =>
    client.workflowService.getWorkflowExecutionHistoryReverse({
      namespace: client.options.namespace,
      execution: { workflowId: handle.workflowId },
      maximumPageSize: NEWEST_EVENTS,
    }),
  );
  for (const event of history?.events ?? []) {
    const payloads = event.activityTaskCompletedEventAttributes?.result?.payloads;
    if (!payloads?.length) continue;
    const result = await decodeFromPayloadsAtIndex<unknown>(client.options.loadedDataConverter, 0, payloads).catch(() => undefined);
    const reply = result as { storedTag?: unknown; relay?: unknown } | undefined;
    // Only a model call's result has a storedTag: the newest one speaks, with or without a relay.
    if (typeof reply?.storedTag !== 'string') continue;
    const relay = LiveRelayAddressSchema.safeParse(reply.relay);
    return relay.success ? relay.data : undefined;
  }
  return undefined;
}
