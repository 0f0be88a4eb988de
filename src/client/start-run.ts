import type { Client, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { AgentRunInputSchema, type AgentRunInput, type ParsedRunInput } from '../contract/run-input';
import type { AgentRunWorkflow } from '../contract/agent-run-api';
import { AgentNameKey, AgentStatusKey } from '../contract/search-attributes';
import { describeZodError } from '../contract/describe-zod-error';
import { compileJsonSchema } from '../core/json-schema/json-schema-check';
import { InvalidRunRequestError } from './errors';
import { AGENT_RUN_WORKFLOW_TYPE } from '../contract/agent-run-api';
import { workflowIdProblem } from '../core/approvals/signatures/workflow-id';

export { AGENT_RUN_WORKFLOW_TYPE };

/** A readable, unique workflow id: agent name plus time and a random suffix. */
export function newRunId(agent: string): string {
  return `agent-${agent}-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Checks a run input as the workflow will (its schema, and its output schema compiles), so a caller
 * learns of a mistake before anything is written to the server. Shared by runs and schedules.
 */
export function checkRunInput(input: AgentRunInput): ParsedRunInput {
  const parsed = AgentRunInputSchema.safeParse(input);
  if (!parsed.success) throw new InvalidRunRequestError(`Invalid run input:\n${describeZodError(parsed.error)}`);
  if (parsed.data.outputSchema) {
    try {
      compileJsonSchema(parsed.data.outputSchema, 'outputSchema');
    } catch (error) {
      throw new InvalidRunRequestError(`Invalid run input: ${(error as Error).message}`);
    }
  }
  return parsed.data;
}

/**
 * Starts an `agentRun`. The input is checked here too, so a caller gets a clear error before
 * anything is written to the server; the workflow validates again for clients that skip this.
 */
export async function startRun(
  client: Client,
  input: AgentRunInput,
  options: { taskQueue: string; workflowId?: string; memo?: Record<string, unknown>; searchAttributes?: SearchAttributePair[] },
): Promise<WorkflowHandleWithFirstExecutionRunId<AgentRunWorkflow>> {
  const workflowId = options.workflowId ?? newRunId(input.agent);
  const idProblem = workflowIdProblem(workflowId);
  if (idProblem) throw new InvalidRunRequestError(`Invalid run request: ${idProblem}.`);
  checkRunInput(input);
  const start = runStartOptions(input);
  return client.workflow.start<AgentRunWorkflow>(AGENT_RUN_WORKFLOW_TYPE, {
    taskQueue: options.taskQueue,
    workflowId,
    args: [input],
    memo: options.memo,
    ...start,
    typedSearchAttributes: [...start.typedSearchAttributes, ...(options.searchAttributes ?? [])],
  });
}

/** What every start of a run carries besides its input (a schedule's firings too): the Web UI's summary and the search attributes. */
export function runStartOptions(input: AgentRunInput): { staticSummary: string; staticDetails: string; typedSearchAttributes: SearchAttributePair[] } {
  const task = input.task.length > 120 ? `${input.task.slice(0, 117)}...` : input.task;
  return {
    staticSummary: `${input.agent}: ${task}`,
    staticDetails: `**Agent:** ${input.agent}\n\n**Task:** ${input.task}`,
    typedSearchAttributes: [
      { key: AgentNameKey, value: input.agent },
      { key: AgentStatusKey, value: 'starting' },
    ],
  };
}
