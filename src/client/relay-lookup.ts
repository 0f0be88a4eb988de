import type { WorkflowHandle } from '@temporalio/client';
import type { LiveRelayAddress } from '../contract/live-feed';

export async function relayInHistory(_handle: WorkflowHandle): Promise<LiveRelayAddress | undefined> {
  return undefined;
}
