// The floor of bench:cpu (scenarios 4–6): the least a Temporal TS worker does for agentRun's
// iteration shape. Per iteration, one activity for the model call and one local activity standing
// for the quick tool, as agentRun runs a read tool; no state, policy, events or conversation.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { BareCpuActivities, BareCpuInput } from './bare-activities';

const { bareCpuModel } = proxyActivities<BareCpuActivities>({ startToCloseTimeout: '1 minute' });
const { bareCpuTool } = proxyLocalActivities<BareCpuActivities>({ startToCloseTimeout: '1 minute' });

export async function bareCpuLoop(input: BareCpuInput): Promise<number> {
  for (let step = 0; ; step += 1) {
    const call = await bareCpuModel({ ...input, step });
    if (call === 'complete_task') return step + 1;
    await bareCpuTool();
  }
}
