import type { WorkflowExecutionInfo } from '@temporalio/client';
import { AGENT_RUN_WORKFLOW_TYPE } from '../contract/agent-run-api';
import { AgentNameKey, AgentStatusKey } from '../contract/search-attributes';

// Listing runs through Temporal's visibility store, shared by `agentctl list` and the console's run list.

/** A visibility-query string literal: single quotes, with quotes and backslashes escaped. */
const literal = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The visibility query for `list`: agent runs, optionally of one agent and in one phase. */
export function listQuery(filters: { agent?: string; phase?: string }): string {
  const clauses = [`WorkflowType = ${literal(AGENT_RUN_WORKFLOW_TYPE)}`];
  if (filters.agent) clauses.push(`AgentName = ${literal(filters.agent)}`);
  if (filters.phase) clauses.push(`AgentStatus = ${literal(filters.phase)}`);
  return clauses.join(' AND ');
}

export interface ListedRun {
  workflowId: string;
  runId: string;
  agent?: string;
  phase?: string;
  execution: string;
  startTime: string;
  closeTime?: string;
}

export function toListed(info: WorkflowExecutionInfo): ListedRun {
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    agent: info.typedSearchAttributes.get(AgentNameKey),
    phase: info.typedSearchAttributes.get(AgentStatusKey),
    execution: info.status.name,
    startTime: info.startTime.toISOString(),
    closeTime: info.closeTime?.toISOString(),
  };
}
