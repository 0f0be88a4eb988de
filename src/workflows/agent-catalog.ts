import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../runtime/activities';
import type { AgentCatalog } from '../runtime/agents/agent-catalog';

/** A local activity: the worker that runs this workflow task is the one that answers, in one round trip. */
const { describeAgents } = proxyLocalActivities<Pick<Activities, 'describeAgents'>>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/**
 * "Which agents does the worker on this task queue serve, with which tools?" A workflow rather than
 * something the worker writes somewhere, because a workflow on the task queue reaches exactly the
 * workers that would run an agent there, answers from their live registry (MCP servers included),
 * and works from any Temporal client: `agentctl agents`, or
 * `temporal workflow execute --type agentCatalog --task-queue agents`. All workers of one task queue
 * must serve the same agents (Temporal requires the same for workflows), so any one answers for all.
 */
export async function agentCatalog(): Promise<AgentCatalog> {
  return await describeAgents();
}
