import { randomUUID } from 'node:crypto';
import { TimeoutFailure, WorkflowFailedError, type Client } from '@temporalio/client';
import type { AgentCatalog } from '../runtime/agents/agent-catalog';
import type { agentCatalog } from '../workflows/agent-catalog';
import { NoWorkerAnsweredError } from './errors';

export const AGENT_CATALOG_WORKFLOW_TYPE = 'agentCatalog';

/** Temporal's enum values (temporal.api.enums.v1): a normal task queue, its workflow side. */
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;

/**
 * Asks a worker of `taskQueue` which agents it serves: runs the tiny `agentCatalog` workflow there.
 * When no worker has polled the queue lately, says so at once instead of waiting for the timeout.
 */
export async function fetchAgentCatalog(client: Client, taskQueue: string, timeoutMs = 15_000): Promise<AgentCatalog> {
  const described = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
    taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
  });
  if ((described.pollers ?? []).length === 0) {
    throw new NoWorkerAnsweredError(`No worker polls task queue "${taskQueue}"; start one with \`npm run worker\` (or set TEMPORAL_TASK_QUEUE to the queue your worker polls).`);
  }
  try {
    return await client.workflow.execute<typeof agentCatalog>(AGENT_CATALOG_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: `agentctl-agents-${randomUUID().slice(0, 8)}`,
      workflowExecutionTimeout: timeoutMs,
    });
  } catch (error) {
    if (error instanceof WorkflowFailedError && error.cause instanceof TimeoutFailure) {
      throw new NoWorkerAnsweredError(`No worker on task queue "${taskQueue}" answered within ${Math.round(timeoutMs / 1000)} s; is it running, and is it this release (it must know the agentCatalog workflow)?`);
    }
    throw error;
  }
}
