// Temporal's own floor for this loop: a workflow with no state, policy, events or conversation
// handling, calling one model activity and one no-op activity per iteration. What the agent runtime
// adds on top of it is the runtime's own overhead; the rest is the server and SDK round trips.
import { proxyActivities } from '@temporalio/workflow';
import type { BareActivities } from './bare-activities';

const { bareModelCall, bareNoop } = proxyActivities<BareActivities>({ startToCloseTimeout: '1 minute' });

export async function bareLoop(task: string): Promise<number> {
  for (let step = 0; ; step += 1) {
    const call = await bareModelCall({ task, step });
    if (call === 'complete_task') return step + 1;
    await bareNoop();
  }
}
